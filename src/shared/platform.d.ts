/**
 * What both the browser and node offer, which src/shared may use although
 * its project has neither the DOM's types nor node's: the WHATWG URL, as far
 * as it is used here.
 */
interface URLSearchParams {
  set(name: string, value: string): void;
}

interface URL {
  readonly hostname: string;
  readonly searchParams: URLSearchParams;
  toString(): string;
}

declare var URL: {
  prototype: URL;
  new (url: string, base?: string): URL;
};
