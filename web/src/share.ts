/*
 * share.ts -- the invitation to a table: on a phone whose browser has the
 * Web Share API, the system's share sheet (messages, mail, chat apps);
 * elsewhere, or when sharing fails, the link copied to the clipboard and
 * selected in its field.  input.ts calls invite(); center.ts labels the
 * button after inviteHow().
 *
 * What must stay true: the link is the table's /t/CODE, never its token;
 * the player closing the share sheet (AbortError) is not an error and
 * copies nothing.
 */

/** What the page can use (navigator and matchMedia, or fakes in tests). */
export interface ShareEnv {
  share?: (data: { title?: string; text?: string; url?: string }) => Promise<void>;
  clipboard?: { writeText(s: string): Promise<void> };
  /** A touch screen, as a phone's: (pointer: coarse). */
  coarse: boolean;
}

export const inviteHow = (env: ShareEnv): 'share' | 'copy' =>
  env.coarse && typeof env.share === 'function' ? 'share' : 'copy';

/** Share the table's link, or copy it; resolves to what was done. */
export async function invite(
  env: ShareEnv,
  link: string,
  text: string,
): Promise<'shared' | 'copied' | 'cancelled' | 'failed'> {
  if (inviteHow(env) === 'share') {
    try {
      await env.share!({ title: 'Scopa', text, url: link });
      return 'shared';
    } catch (e) {
      if ((e as { name?: string } | null)?.name === 'AbortError') return 'cancelled';
      // refused (no user activation, a policy): copy instead
    }
  }
  try {
    await env.clipboard?.writeText(link);
    return env.clipboard ? 'copied' : 'failed';
  } catch {
    return 'failed';
  }
}

/** The page's own: navigator and the pointer media query. */
export function pageShareEnv(): ShareEnv {
  const nav = navigator as Navigator & { share?: ShareEnv['share'] };
  return {
    share: typeof nav.share === 'function' ? nav.share.bind(nav) : undefined,
    clipboard: nav.clipboard,
    coarse: window.matchMedia?.('(pointer: coarse)').matches ?? false,
  };
}
