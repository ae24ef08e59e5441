import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { katexIfLoaded, loadKatex, type Typesetter } from '../markdown/loadKatex';

/** Props of {@link MathView}. */
export interface MathViewProps {
  readonly tex: string;
  /** Display math (`$$…$$`, a block of its own) rather than inline. */
  readonly display: boolean;
}

/**
 * TeX typeset by KaTeX. Until KaTeX has loaded the source shows as written (`$…$`), so
 * nothing is lost on a slow link; KaTeX then fills an element that Preact leaves empty.
 */
export function MathView({ tex, display }: MathViewProps) {
  const t = useT();
  const [typesetter, setTypesetter] = useState<Typesetter | null>(katexIfLoaded);
  const out = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    if (typesetter) return;
    let cancelled = false;
    void loadKatex().then((module) => {
      if (!cancelled) setTypesetter(module);
    });
    return () => {
      cancelled = true;
    };
  }, [typesetter]);
  useLayoutEffect(() => {
    if (typesetter && out.current) typesetter.typeset(tex, out.current, display);
  }, [typesetter, tex, display]);
  const Tag = display ? 'div' : 'span';
  const source = display ? `$$${tex}$$` : `$${tex}$`;
  if (!typesetter) {
    return (
      <Tag class={`math math-source${display ? ' math-display' : ''}`} title={t('mathLoading')}>
        {source}
      </Tag>
    );
  }
  return (
    <Tag class={`math${display ? ' math-display' : ''}`} data-tex={tex}>
      <span key="katex" ref={out} />
    </Tag>
  );
}
