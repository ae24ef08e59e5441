import { useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';

/** Props of {@link MessageEditor}. */
export interface MessageEditorProps {
  readonly initial: string;
  readonly onSave: (text: string) => Promise<void> | void;
  readonly onCancel: () => void;
}

/** Edits a sent message; saving makes a new branch with the new text and its reply. */
export function MessageEditor({ initial, onSave, onCancel }: MessageEditorProps) {
  const t = useT();
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const save = async () => {
    if (saving || text.trim() === '') return;
    setSaving(true);
    try {
      await onSave(text);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      class="editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <textarea
        ref={area}
        aria-label={t('editMessage')}
        dir="auto"
        value={text}
        rows={3}
        autofocus
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            void save();
          }
        }}
      />
      <div class="editor-actions">
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="submit" class="primary" disabled={saving || text.trim() === ''}>
          {t('saveAndAnswer')}
        </button>
      </div>
    </form>
  );
}
