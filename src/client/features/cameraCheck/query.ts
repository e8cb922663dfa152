/**
 * The camera check's query parameters (for tests, harmless otherwise):
 *   engine=auto|wasm-simd|wasm-scalar|js   force an engine
 *   capture=auto|track-processor|video-frame|image-bitmap|image-capture|none
 *   sleeper=1                              start with the sleeper's no-motion count
 */
import { CAPTURE_METHODS, type CaptureMethod } from '../../vision/capture';
import type { EnginePreference } from '../../vision/client';

export interface CheckQuery {
  engine: EnginePreference;
  capture: CaptureMethod | 'auto' | 'none';
  sleeper: boolean;
}

function isCaptureMethod(value: string | null): value is CaptureMethod {
  return CAPTURE_METHODS.some((method) => method === value);
}

/** Unknown values fall back to `auto` (and no sleeper). */
export function readQuery(search: string): CheckQuery {
  const query = new URLSearchParams(search);
  const engine = query.get('engine');
  const capture = query.get('capture');
  return {
    engine: engine === 'wasm-simd' || engine === 'wasm-scalar' || engine === 'js' ? engine : 'auto',
    capture: capture === 'none' || isCaptureMethod(capture) ? capture : 'auto',
    sleeper: query.get('sleeper') === '1',
  };
}
