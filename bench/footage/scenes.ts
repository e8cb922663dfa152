/**
 * What the clips are made of, measured by hand on the photographs (viewed
 * with a 20-50 px grid; about ±10 %): where each person's face is, the outline
 * kept around it, the face-free regions used as backgrounds, and the glass
 * that covers a drinker's mouth.
 */

import type { Region } from './decode.ts';
import type { SourceId } from './sources.ts';

/** An ellipse in face sides, centred `dy` face sides below the face's centre. */
interface Ellipse {
  dy: number;
  rx: number;
  ry: number;
}

export interface Person {
  source: SourceId;
  /** The face: its centre and side (brow to chin, about ear to ear) in source pixels. */
  face: { x: number; y: number; side: number };
  /** The head with its hair, and the neck and shoulders: what is cut out around the face. */
  head: Ellipse;
  shoulders: Ellipse;
  shows: string;
}

export const PEOPLE = {
  'man-tshirt': {
    source: 'face-swapped',
    face: { x: 164, y: 155, side: 110 },
    head: { dy: -0.3, rx: 0.66, ry: 0.95 },
    shoulders: { dy: 1.6, rx: 1.5, ry: 1.1 },
    shows: 'a bearded man with curly hair, white T-shirt',
  },
  'man-glasses': {
    source: 'three-men',
    face: { x: 94, y: 150, side: 85 },
    head: { dy: -0.25, rx: 0.75, ry: 0.95 },
    shoulders: { dy: 1.55, rx: 1.1, ry: 1.0 },
    shows: 'a man with long hair, glasses and a beard, checked shirt (left of the three)',
  },
  'man-hoodie': {
    source: 'three-men',
    face: { x: 276, y: 192, side: 92 },
    head: { dy: -0.3, rx: 0.66, ry: 0.95 },
    shoulders: { dy: 1.5, rx: 1.0, ry: 1.0 },
    shows: 'a young man with tousled hair, red hoodie (middle of the three)',
  },
  'man-sweater': {
    source: 'three-men',
    face: { x: 501, y: 125, side: 87 },
    head: { dy: -0.3, rx: 0.7, ry: 0.95 },
    shoulders: { dy: 1.55, rx: 1.1, ry: 1.0 },
    shows: 'a man with short dark hair, beige sweater (right of the three)',
  },
  'woman-bar': {
    source: 'bar-trio',
    face: { x: 1184, y: 390, side: 210 },
    head: { dy: -0.25, rx: 0.65, ry: 0.9 },
    shoulders: { dy: 1.6, rx: 1.0, ry: 1.0 },
    shows: 'a blonde woman with her hair tied back, black top (middle of the three)',
  },
  'woman-blinds': {
    source: 'blinds-four',
    face: { x: 756, y: 505, side: 175 },
    head: { dy: -0.2, rx: 0.72, ry: 0.95 },
    shoulders: { dy: 1.6, rx: 1.0, ry: 1.0 },
    shows: 'a woman with long dark hair, red dress (second from the left)',
  },
} as const satisfies Record<string, Person>;

export type PersonId = keyof typeof PEOPLE;

export interface Background {
  source: SourceId;
  /** A region with no face in it. */
  region: Region;
  /** A video (one frame a second), or a still photograph. */
  video: boolean;
  shows: string;
}

export const BACKGROUNDS = {
  'lecture-hall': {
    source: 'lecture-hall',
    region: { x: 0, y: 0, width: 560, height: 420 },
    video: false,
    shows: 'the empty lecture hall (above the people at the bottom edge)',
  },
  blinds: {
    source: 'blinds-four',
    region: { x: 0, y: 0, width: 640, height: 370 },
    video: false,
    shows: 'white blinds in a wooden window frame (above the women)',
  },
  'bar-windows': {
    source: 'bar-trio',
    region: { x: 340, y: 0, width: 320, height: 240 },
    video: false,
    shows: 'the bar windows with tables behind (above the women)',
  },
  'from-behind': {
    source: 'basketball',
    region: { x: 420, y: 10, width: 220, height: 165 },
    video: false,
    shows: 'the right-hand man of basketball1.png seen from behind: the back of his head, an ear and his shoulders, as a guest who turned away from the camera',
  },
  hallway: {
    source: 'vtest',
    region: { x: 0, y: 0, width: 768, height: 576 },
    video: true,
    shows: 'the walkway of vtest.avi with its pedestrians',
  },
  megamind: {
    source: 'megamind',
    region: { x: 0, y: 0, width: 720, height: 528 },
    video: true,
    shows: 'the animated excerpt',
  },
  minions: {
    source: 'minions',
    region: { x: 0, y: 0, width: 800, height: 450 },
    video: true,
    shows: 'the animated trailer',
  },
} as const satisfies Record<string, Background>;

export type BackgroundId = keyof typeof BACKGROUNDS;

/** The glass with a red drink in the left woman's hand of bar-trio: what a drinker lifts to the mouth. */
export const GLASS = { source: 'bar-trio', region: { x: 590, y: 800, width: 140, height: 190 } } as const satisfies { source: SourceId; region: Region };
