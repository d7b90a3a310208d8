/*
 * share.test.ts -- the invitation (share.ts): a phone with the Web Share
 * API shares the link; without it, or on a desktop, or when the share is
 * refused, the link is copied; the player closing the sheet copies nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ShareEnv, invite, inviteHow } from '../src/share.js';

const LINK = 'https://scopa.example/t/K7QX2M';

function env(over: Partial<ShareEnv> & { refuse?: string } = {}): {
  e: ShareEnv;
  shared: unknown[];
  copied: string[];
} {
  const shared: unknown[] = [];
  const copied: string[] = [];
  const e: ShareEnv = {
    coarse: true,
    share: (d) => {
      shared.push(d);
      if (over.refuse) {
        const err = new Error('no');
        err.name = over.refuse;
        return Promise.reject(err);
      }
      return Promise.resolve();
    },
    clipboard: {
      writeText: (s) => {
        copied.push(s);
        return Promise.resolve();
      },
    },
    ...over,
  };
  return { e, shared, copied };
}

test('a phone with the Web Share API shares the link, nothing copied', async () => {
  const x = env();
  assert.equal(inviteHow(x.e), 'share');
  assert.equal(await invite(x.e, LINK, 'Come'), 'shared');
  assert.deepEqual(x.shared, [{ title: 'Scopa', text: 'Come', url: LINK }]);
  assert.deepEqual(x.copied, []);
});

test('a desktop, or a browser without it, copies the link', async () => {
  for (const over of [{ coarse: false }, { share: undefined }]) {
    const x = env(over);
    assert.equal(inviteHow(x.e), 'copy');
    assert.equal(await invite(x.e, LINK, 'Come'), 'copied');
    assert.deepEqual(x.copied, [LINK]);
    assert.deepEqual(x.shared, []);
  }
});

test('a refused share falls back to the copy; a closed sheet copies nothing', async () => {
  const refused = env({ refuse: 'NotAllowedError' });
  assert.equal(await invite(refused.e, LINK, 'Come'), 'copied');
  assert.deepEqual(refused.copied, [LINK]);
  const closed = env({ refuse: 'AbortError' });
  assert.equal(await invite(closed.e, LINK, 'Come'), 'cancelled');
  assert.deepEqual(closed.copied, []);
});
