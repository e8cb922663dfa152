import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store.ts';
import { faceLost, facePositionGroup, faceSeen } from './facePositionSlice.ts';
import { sessionLeft } from './sessionSlice.ts';

const seen = { time: 5_000, mirrored: false, guestId: 7 };

describe('facePosition', () => {
  it('is null until a face is seen', () => {
    const store = makeStore();
    expect(facePositionGroup.selectSlice(store.getState())).toBeNull();
  });

  it("keeps where the face is, the gaze toward it, the guest and the time; no warden on the guest's device", () => {
    const store = makeStore();
    store.dispatch(faceSeen({ x: 0.2, y: 0.5, size: 0.3 }, seen));
    const position = facePositionGroup.selectSlice(store.getState());
    expect(position).toMatchObject({ left: 0.2, top: 0.5, guestId: 7, wardenId: null, time: 5_000 });
    expect(position?.radian).toBeCloseTo(Math.PI);
    expect(position?.radius).toBeGreaterThan(0.8);
  });

  it("mirrors a front camera's picture as its preview shows it: a face at the picture's left is on the right", () => {
    const store = makeStore();
    store.dispatch(faceSeen({ x: 0.2, y: 0.4, size: 0.3 }, { ...seen, mirrored: true }));
    const position = facePositionGroup.selectSlice(store.getState());
    expect(position?.left).toBeCloseTo(0.8);
    expect(position?.top).toBeCloseTo(0.4);
    expect(Math.cos(position?.radian ?? Math.PI)).toBeGreaterThan(0);
  });

  it('keeps the position within the frame', () => {
    const store = makeStore();
    store.dispatch(faceSeen({ x: -0.1, y: 1.2, size: 0.3 }, seen));
    expect(facePositionGroup.selectSlice(store.getState())).toMatchObject({ left: 0, top: 1, radius: 1 });
  });

  it('ignores a move within the dead zone (the same state: nothing renders again) and follows a larger one', () => {
    const store = makeStore();
    store.dispatch(faceSeen({ x: 0.6, y: 0.5, size: 0.3 }, seen));
    const first = facePositionGroup.selectSlice(store.getState());
    store.dispatch(faceSeen({ x: 0.605, y: 0.51, size: 0.3 }, { ...seen, time: 6_000 }));
    expect(facePositionGroup.selectSlice(store.getState())).toBe(first);
    store.dispatch(faceSeen({ x: 0.75, y: 0.5, size: 0.3 }, { ...seen, time: 7_000 }));
    expect(facePositionGroup.selectSlice(store.getState())).toMatchObject({ left: 0.75, time: 7_000 });
  });

  it('is null again when the face is lost and when the guest leaves the session', () => {
    const store = makeStore();
    store.dispatch(faceSeen({ x: 0.6, y: 0.5, size: 0.3 }, seen));
    store.dispatch(faceLost());
    expect(facePositionGroup.selectSlice(store.getState())).toBeNull();
    store.dispatch(faceSeen({ x: 0.6, y: 0.5, size: 0.3 }, seen));
    store.dispatch(sessionLeft());
    expect(facePositionGroup.selectSlice(store.getState())).toBeNull();
  });
});
