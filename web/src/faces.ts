/*
 * faces.ts -- the quick reactions that are pictures (applause, laugh,
 * wow, think), drawn as SVG by the project, and the one way a reaction's
 * content is put in an element (a button of the sidebar, the bubble by a
 * seat).
 *
 * Why not emoji: Debian's chromium carries no colour emoji font, so two
 * of them (👏, 🤔) were empty boxes and the others monochrome DejaVu
 * glyphs; drawn here they look the same in every browser.
 *
 * What must stay true: a picture reaction is never a text glyph; its words
 * (i18n r_<id>, "Applause" / "Applausi") are its accessible name and its
 * tooltip. The markup has no id (it is drawn many times in one document)
 * and no style attribute (the page's CSP), only presentation attributes.
 */
import { type Lang, reactionText } from './i18n.js';

const SKIN = 'fill="#ffcc4d" stroke="#c98a00" stroke-width="1.3" stroke-linejoin="round"';
const INK = '#664500';
const FACE = `<circle cx="18" cy="18" r="16" ${SKIN}/>`;
const LINE = `fill="none" stroke="${INK}" stroke-width="2" stroke-linecap="round"`;

/** One hand seen from its palm's side, fingers up, the thumb on the left
 * (local coordinates: the fingertips at y -4). */
const HAND =
  `<path d="M-5 0q0-4.5 5-4.5t5 4.5v13q0 7-6.5 7q-4.5 0-6.5-4.5l-3.5-7q-1-2.2 1-3.2t3 1l3 4.2z" ${SKIN}/>` +
  `<path d="M-1.7-3.6v9M1.7-3.6v9" fill="none" stroke="#c98a00" stroke-width=".9" stroke-linecap="round"/>`;

/** The pictures, by reaction id (catalogue.gen.ts reactions), each on a
 * 36x36 box. */
const FACES: Readonly<Record<string, string>> = {
  // 👏 two hands meeting, and the clap's three strokes
  applause:
    `<g transform="translate(15 20) rotate(18) translate(0 -8)">${HAND}</g>` +
    `<g transform="translate(21 20) rotate(-18) scale(-1 1) translate(0 -8)">${HAND}</g>` +
    `<path d="M6.5 6l2.2 2.2M18 1.2v3.2M29.5 6l-2.2 2.2" ${LINE}/>`,
  // 😄 eyes closed in a smile, the mouth open with its teeth
  laugh:
    FACE +
    `<path d="M9 15q3-4.2 6 0M21 15q3-4.2 6 0" ${LINE}/>` +
    `<path d="M8.5 19.5h19q0 10-9.5 10t-9.5-10z" fill="${INK}"/>` +
    `<path d="M9.6 20.4h16.8q-.1 1.6-.5 2.6h-15.8q-.4-1-.5-2.6z" fill="#fff"/>` +
    `<path d="M13 26.6q5-3.2 10 0q-2 2.2-5 2.2t-5-2.2z" fill="#f4708b"/>`,
  // 😮 eyebrows up, eyes wide, the mouth a round O
  wow:
    FACE +
    `<path d="M8.5 9.5q3-3 6.5-1.6M27.5 9.5q-3-3-6.5-1.6" ${LINE}/>` +
    `<ellipse cx="12.5" cy="15" rx="2" ry="3" fill="${INK}"/>` +
    `<ellipse cx="23.5" cy="15" rx="2" ry="3" fill="${INK}"/>` +
    `<ellipse cx="18" cy="25.5" rx="4" ry="5" fill="${INK}"/>`,
  // 🤔 one eyebrow up, a doubtful mouth, a hand at the chin
  think:
    FACE +
    `<path d="M9 11l5.5-.8M21.5 9q3-3.2 6.2-.6" ${LINE}/>` +
    `<ellipse cx="12.5" cy="15.5" rx="1.8" ry="2.6" fill="${INK}"/>` +
    `<ellipse cx="24" cy="14.5" rx="1.8" ry="2.6" fill="${INK}"/>` +
    `<path d="M14.5 23.5q4.5-1.8 9 .6" ${LINE}/>` +
    `<path d="M6.5 29q0-3.5 3.5-3.5h4.5l3.8-5.3q1.5-1.5 2.6 0l-2.2 5.8q1.3 1 1.3 3v1.5q0 3.3-3.3 3.3h-6.7q-3.5 0-3.5-3.3z" ${SKIN}/>` +
    `<path d="M9 29h6M9.5 31.5h5.5" fill="none" stroke="#c98a00" stroke-width=".9" stroke-linecap="round"/>`,
};

/** The SVG of a picture reaction, or undefined for a reaction in words. */
export function faceSvg(id: string): string | undefined {
  const body = FACES[id];
  if (body === undefined) return undefined;
  return `<svg class="face" viewBox="0 0 36 36" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">${body}</svg>`;
}

/** Put reaction `id` in `el`: its words, or its picture named by its words
 * (aria-label and title), so a reader and a tooltip say "Applause". */
export function fillReaction(el: HTMLElement, lang: Lang, id: string): HTMLElement {
  const words = reactionText(lang, id);
  const svg = faceSvg(id);
  if (svg === undefined) {
    el.textContent = words;
    return el;
  }
  el.innerHTML = svg;
  el.setAttribute('aria-label', words);
  el.setAttribute('title', words);
  el.dataset.face = id;
  return el;
}
