/**
 * Every file the labelled footage is made from (bench/README.md, "Judgment
 * benchmark"): real photographs and videos that Debian's apt and the npm
 * registry carry, fetched by `fetch.ts` into `bench/.cache/footage/` (never
 * committed) and checked against the sha256 here.
 */

export interface FootagePackage {
  registry: 'debian' | 'npm';
  name: string;
  /** The exact version fetched (`apt-get download name=version`, `npm pack name@version`). */
  version: string;
}

export interface FootageSource {
  /** The name the scenes use. */
  id: string;
  package: FootagePackage;
  /** Path inside the package (the .deb's file tree, or the npm tarball's `package/`). */
  path: string;
  licence: string;
  /** What it shows, as seen. */
  shows: string;
  width: number;
  height: number;
  sha256: string;
}

const OPENCV_DOC: FootagePackage = { registry: 'debian', name: 'opencv-doc', version: '4.6.0+dfsg-12' };
const FACE_API: FootagePackage = { registry: 'npm', name: '@vladmandic/face-api', version: '1.7.15' };
const TRACKING: FootagePackage = { registry: 'npm', name: 'tracking', version: '1.1.3' };

const OPENCV_LICENCE = 'Apache-2.0 AND BSD-3-Clause (debian/copyright, Files: *)';
const FACE_API_LICENCE = 'MIT (the package; the demo photos carry no notice of their own)';
const TRACKING_LICENCE = 'BSD (the package; the photo looks like a TV promotional still whose own rights are not stated)';

export const SOURCES = [
  {
    id: 'face-swapped',
    package: OPENCV_DOC,
    path: 'usr/share/doc/opencv-doc/opencv4/html/face_swapped.jpg',
    licence: OPENCV_LICENCE,
    shows: 'one man, head and shoulders, frontal, white T-shirt, dark background (the output of the face-swap tutorial)',
    width: 320,
    height: 320,
    sha256: '302634120bc53f9327cb06c7cb265fc4741fef281514d8f3bd214749e53ce6cc',
  },
  {
    id: 'facereg',
    package: OPENCV_DOC,
    path: 'usr/share/doc/opencv-doc/opencv4/html/facereg.jpg',
    licence: OPENCV_LICENCE,
    shows: 'four frontal faces, head and shoulders, in a 2x2 grid (the facemark tutorial), yellow landmark dots drawn over each: jaw, brows, eyes, nose, mouth',
    width: 200,
    height: 200,
    sha256: '4e09180bb023bb709aba4d2515813d326696236914f10bfdf23bb32f95c9c600',
  },
  {
    id: 'mona-lisa',
    package: OPENCV_DOC,
    path: 'usr/share/doc/opencv-doc/opencv4/html/julia_facedetect_sample.jpg',
    licence: OPENCV_LICENCE,
    shows: "the Mona Lisa in grey, her face boxed in green with a score (the Julia face-detection sample's output window)",
    width: 520,
    height: 769,
    sha256: '4c2737ea3f3a3245cbb77d7395287ef9a9eca1bd905b9b3e9585ca1d422b35d1',
  },
  {
    id: 'lecture-hall',
    package: OPENCV_DOC,
    path: 'usr/share/doc/opencv-doc/opencv4/html/studentsSample_input.jpg',
    licence: OPENCV_LICENCE,
    shows: 'an empty lecture hall: projection screen, ceiling lights, rows of seats; a few tiny people at the bottom edge',
    width: 640,
    height: 480,
    sha256: '4f7158ae7b403405d0879194d0afe590b063bc81479d944705102d9ff55a2c56',
  },
  {
    id: 'vtest',
    package: OPENCV_DOC,
    path: 'usr/share/doc/opencv-doc/examples/data/vtest.avi',
    licence: OPENCV_LICENCE,
    shows: 'a fixed camera above a campus walkway, 79.5 s at 10 fps: pedestrians walking, none with a face of 40 px at 160x120',
    width: 768,
    height: 576,
    sha256: '45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf',
  },
  {
    id: 'megamind',
    package: OPENCV_DOC,
    path: 'usr/share/doc/opencv-doc/examples/data/Megamind.avi',
    licence: OPENCV_LICENCE,
    shows: 'an animated film excerpt, 11.3 s: cartoon characters at a candle-lit table (no real face)',
    width: 720,
    height: 528,
    sha256: '0057387cb7e75c8fd1663b62cfdc51fa53f527795d0fe3c1fea2fd159d3130b5',
  },
  {
    id: 'basketball',
    package: OPENCV_DOC,
    path: 'usr/share/doc/opencv-doc/examples/data/basketball1.png',
    licence: OPENCV_LICENCE,
    shows: 'an office in grey: a man on the left throws a ball to a man on the right, who is seen from behind, his face turned away (the optical-flow sample)',
    width: 640,
    height: 480,
    sha256: 'ba06f6701f7260998b430c39b6557f775497e6ce7b1a74f0b7ea6af371bf54a6',
  },
  {
    id: 'bar-trio',
    package: FACE_API,
    path: 'package/demo/sample3.jpg',
    licence: FACE_API_LICENCE,
    shows: 'three women on a bar sofa, frontal; the left one holds a glass with a red drink; bar windows behind',
    width: 1920,
    height: 1350,
    sha256: '8eb081c9efb14370fa94d9feab9e5fbeafd19a627491853a80c2bf67f7ffa936',
  },
  {
    id: 'blinds-four',
    package: FACE_API,
    path: 'package/demo/sample6.jpg',
    licence: FACE_API_LICENCE,
    shows: 'four women standing before windows with white blinds in a wooden frame, frontal',
    width: 1920,
    height: 1537,
    sha256: '9baad80f9d5e306fb9b8c0913d44445f1e95848df317530efb03d0934c57ba87',
  },
  {
    id: 'three-men',
    package: TRACKING,
    path: 'package/examples/assets/faces.jpg',
    licence: TRACKING_LICENCE,
    shows: 'three men, head and shoulders, frontal, before a bookshelf: a webcam-like framing',
    width: 600,
    height: 346,
    sha256: '889272392977114f72146e88b6775cdea9a2a421c84472972c862d7435281b7e',
  },
  {
    id: 'minions',
    package: TRACKING,
    path: 'package/examples/assets/minions.mp4',
    licence: TRACKING_LICENCE,
    shows: 'an animated trailer, 60.4 s: cartoon minions on a grey floor (no real face)',
    width: 800,
    height: 450,
    sha256: '9e2fe73ae33070fdeb74431eadfc134fa4bc7d1844c2b76707e3cc720fcc2f95',
  },
] as const satisfies readonly FootageSource[];

export type SourceId = (typeof SOURCES)[number]['id'];
