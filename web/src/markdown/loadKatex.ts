/** The math module (KaTeX, its CSS and fonts), loaded once, on demand. */
export type Typesetter = Pick<typeof import('./katex'), 'typeset'>;

let loading: Promise<Typesetter> | null = null;
let loaded: Typesetter | null = null;

/** Loads KaTeX the first time a message shows math. */
export function loadKatex(): Promise<Typesetter> {
  loading ??= import('./katex').then(({ typeset }) => {
    loaded = { typeset };
    return loaded;
  });
  return loading;
}

/** KaTeX if it has loaded already (so math renders in the first frame), else null. */
export function katexIfLoaded(): Typesetter | null {
  return loaded;
}
