import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { BUILD_VERSION, CLIENT_VERSION } from './version.ts';

describe('the build version', () => {
  it('is the client version 70 with the package version beside it', () => {
    expect(CLIENT_VERSION).toBe(70);
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(BUILD_VERSION).toBe(`70 (${version})`);
  });
});
