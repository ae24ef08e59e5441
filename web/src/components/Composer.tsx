import { type Destination, destinationOf, type StoreState } from '@webbridge/client-sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/I18nContext';
import { pure } from '../render/pure';
import { useObservable } from '../state/hooks';
import { useSession } from '../state/SessionContext';
import { shownDestination } from '../state/shownDestination';
import { useStoreSelector } from '../state/useStoreSelector';
import { DestinationConfirm } from './DestinationConfirm';
import { Icon } from './Icon';
import { PendingActions } from './PendingActions';
import { PendingAttachments } from './PendingAttachments';
import { SlashCommands } from './SlashCommands';

/**
 * Whether a paste means "attach these files" rather than "type this text". A screenshot or an
 * image copied from a page comes as files (and maybe HTML); files copied in a file manager
 * come with their names as text. Cells copied from a spreadsheet come as text *and* a picture
 * of them: that is text.
 */
export function pasteIsFiles(data: Pick<DataTransfer, 'files' | 'getData'>): boolean {
  if (data.files.length === 0) return false;
  const names = new Set(Array.from(data.files, (file) => file.name));
  const lines = data
    .getData('text/plain')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  // Each line the name (or path) of a pasted file: the text only names the files.
  return lines.every((line) => names.has(line) || names.has(line.split(/[\\/]/).pop() ?? ''));
}

/** What the composer shows besides the place it sends to: none of it changes with a streamed word. */
function composerView({ snapshot, status, pendingActions }: StoreState) {
  if (snapshot === null) return null;
  const { run, pending } = snapshot.conversations;
  return { status, pendingActions, run, pending };
}

/** What the composer's text decides on screen: Send enabled, and a "/" command being typed. */
interface TextShape {
  readonly hasText: boolean;
  /** The text while it is `/` and a word not yet ended (the commands offered), else ''. */
  readonly slash: string;
}

const BLANK: TextShape = { hasText: false, slash: '' };

function shapeOf(text: string): TextShape {
  return { hasText: text.trim() !== '', slash: /^\/\S*$/.test(text) ? text : '' };
}

/** `now` when `next` shows the same (kept by identity, so the state setter renders nothing). */
function sameShape(now: TextShape, next: TextShape): TextShape {
  return now.hasText === next.hasText && now.slash === next.slash ? now : next;
}

/** Where a send goes, as the state on screen says (a flat object: compared field by field). */
function destinationView({ snapshot }: StoreState) {
  return snapshot && destinationOf(snapshot);
}

/**
 * Writes and sends messages: Enter sends, Shift+Enter adds a line, Esc stops a reply. Files
 * can be picked, dropped or pasted (a screenshot from the clipboard) and go with the next
 * message. A send refused with 409 is kept
 * here and only sent again, to the place shown, when the person confirms. The confirmation
 * follows the host while it is open and its button sends with the identity it names, so a
 * host that has moved again by then refuses it and a new confirmation names the new place.
 */
export const Composer = pure(function Composer() {
  const session = useSession();
  const view = useStoreSelector(session.store, composerView);
  const destination = useStoreSelector(session.store, destinationView);
  return view && destination && <ComposerForm {...view} destination={destination} />;
});

function ComposerForm({
  status,
  pendingActions,
  run,
  pending,
  destination,
}: NonNullable<ReturnType<typeof composerView>> & { readonly destination: Destination }) {
  const session = useSession();
  const t = useT();
  const { conversationId } = destination;
  // The run state shown is only current while the stream is live: a stale "running" must not
  // offer a Stop that acts on a reply which may have ended.
  const live = status === 'live';
  // Uploads started in another conversation go on there; this one shows its own.
  const allUploads = useObservable(session.uploads.items);
  const uploads = allUploads.filter((u) => u.conversationId === conversationId);
  const [changed, setChanged] = useState<{ named: Destination; text: string } | null>(null);
  const shown = changed && shownDestination(changed.named, destination);
  const fileInput = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  // The text lives in the textarea, read when sent: a key press re-renders nothing unless it
  // changes what the form shows (Send enabled, the slash commands offered). A controlled
  // textarea re-rendered the whole form per key, a task every key waited behind on a slow
  // phone while a reply streamed (issue 29).
  const [shape, setShape] = useState<TextShape>(BLANK);
  const typed = (text: string) => setShape((now) => sameShape(now, shapeOf(text)));
  const setText = (text: string) => {
    if (area.current) area.current.value = text;
    typed(text);
  };
  const [sending, setSending] = useState(false);
  const running = run.state !== 'idle';
  const listed = new Set(pending.map((a) => a.id));
  // A file uploaded but not yet listed by the host would not go with the message: wait for the
  // host's list (or the upload's grace period, see createUploads).
  const uploading = uploads.some(
    (u) => u.status === 'uploading' || (u.status === 'done' && !listed.has(u.attachmentId ?? '')),
  );
  const canSend = !running && !sending && !uploading && (shape.hasText || pending.length > 0);

  useEffect(() => {
    session.uploads.settle(new Set(pending.map((a) => a.id)));
  }, [pending, session]);

  /** Sends bound to `to`: the place this render shows, never a newer one the store has. */
  const send = async (message: string, to: Destination) => {
    setSending(true);
    // Cleared at once, in the frame of the key press: shrinking the box only after the host
    // answered would move the composer long after the person's input (a layout shift).
    setText('');
    const ids = pending.map((a) => a.id);
    const outcome = await session.send(message, ids, to);
    setSending(false);
    if (outcome.kind === 'sent') {
      setChanged(null);
      area.current?.focus();
      return;
    }
    // Not sent: the text comes back, unless the person has started another one meanwhile.
    if ((area.current?.value ?? '') === '') setText(message);
    if (outcome.kind === 'changed') setChanged({ named: outcome.destination, text: message });
  };

  // One file input, two ways in. "Photo or camera" asks for images only: a phone then offers
  // its camera beside its gallery (an input that takes any file offered only files on some).
  const choose = (accept: string | null) => {
    const input = fileInput.current;
    if (!input) return;
    if (accept) input.accept = accept;
    else input.removeAttribute('accept');
    input.click();
  };

  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) void send(area.current?.value ?? '', destination);
      }}
    >
      {changed && shown && (
        <DestinationConfirm
          destination={shown}
          onConfirm={() => void send(changed.text, shown)}
          onCancel={() => setChanged(null)}
          disabled={sending || running}
        />
      )}
      <PendingActions pending={pendingActions} />
      {!live && (
        <p class="composer-not-live" role="status">
          {t('composerNotLive')}
        </p>
      )}
      <PendingAttachments pending={pending} uploads={uploads} />
      <SlashCommands
        text={shape.slash}
        onPick={(name) => {
          setText(`/${name} `);
          area.current?.focus();
        }}
      />
      <div class="composer-row">
        <input
          ref={fileInput}
          type="file"
          multiple
          class="visually-hidden"
          id="file-input"
          aria-label={t('attachFiles')}
          onChange={(event) => {
            const files = event.currentTarget.files;
            if (files && files.length > 0) void session.uploads.add(Array.from(files), conversationId);
            event.currentTarget.value = '';
          }}
        />
        <button
          type="button"
          class="icon attach-photo"
          aria-label={t('attachPhoto')}
          title={t('attachPhoto')}
          onClick={() => choose('image/*')}
        >
          <Icon name="camera" />
        </button>
        <button
          type="button"
          class="icon attach"
          aria-label={t('attachFiles')}
          title={t('attachFiles')}
          onClick={() => choose(null)}
        >
          <Icon name="attach" />
        </button>
        <textarea
          ref={area}
          class="composer-input"
          dir="auto"
          aria-label={t('message')}
          placeholder={t('message')}
          rows={1}
          onInput={(event) => {
            typed(event.currentTarget.value);
            if (changed) setChanged(null);
          }}
          onPaste={(event) => {
            const data = event.clipboardData;
            if (!data || !pasteIsFiles(data)) return;
            event.preventDefault();
            void session.uploads.add(Array.from(data.files), conversationId);
          }}
          onKeyDown={(event) => {
            // Down from a "/" being typed goes into the agent's commands offered above.
            const command =
              event.key === 'ArrowDown' && event.currentTarget.form?.querySelector('.slash-command');
            if (command instanceof HTMLElement) {
              event.preventDefault();
              command.focus();
              return;
            }
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              if (canSend) void send(event.currentTarget.value, destination);
            }
          }}
        />
        {running ? (
          <button
            type="button"
            class="danger send"
            disabled={!live}
            title={live ? undefined : t('stopNotLive')}
            onClick={() => void session.sensitive((client) => client.stop())}
          >
            {t('stop')}
          </button>
        ) : (
          <button type="submit" class="primary send" disabled={!canSend}>
            {t('send')}
          </button>
        )}
      </div>
    </form>
  );
}
