import { useEffect, useId, useRef, useState } from 'react';

/**
 * Copies `text` to the clipboard. Where the Clipboard API is missing (plain http on a LAN
 * address is not a secure context), the text of `select` is selected for a manual copy instead.
 */
export function CopyButton({ text, label, select }: { text: string; label: string; select?: () => HTMLElement | null }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  useEffect(() => setState('idle'), [text]);
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setState('copied');
          } catch {
            const el = select?.();
            if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
              el.focus();
              el.select();
            } else if (el) window.getSelection()?.selectAllChildren(el);
            setState('manual');
          }
        }}
      >
        {label}
      </button>
      <span className="copy-state muted small" role="status">
        {state === 'copied' ? 'Copied.' : state === 'manual' ? 'Selected: copy it with your keyboard or menu.' : ''}
      </span>
    </>
  );
}

/** A read-only value with a copy button, named by a visible label (tests find it by that label). */
export function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} ref={ref} readOnly value={value} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} label={copyLabel} select={() => ref.current} />
      </div>
    </div>
  );
}

/** A block of text to paste as it is (a JSON template, a command), shown whole, with a copy button. */
export function CopyBlock({ label, text, copyLabel }: { label: string; text: string; copyLabel: string }) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <figure className="copy-block">
      <figcaption>{label}</figcaption>
      <pre ref={ref}>{text}</pre>
      <div className="copy-row">
        <CopyButton text={text} label={copyLabel} select={() => ref.current} />
      </div>
    </figure>
  );
}

/**
 * A secret shown once (a device token, a webhook's signing secret): a region with a warning, the
 * value with a copy button, and what to do with it. Focus moves to its heading when it appears.
 */
export function OnceSecret({
  title,
  label,
  value,
  copyLabel,
  onDone,
  children,
}: {
  title: string;
  label: string;
  value: string;
  copyLabel: string;
  onDone: () => void;
  children?: React.ReactNode;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [value]);
  return (
    <section className="new-key once" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p className="warn">
        <strong>Copy it now: it is shown this once and cannot be shown again.</strong>
      </p>
      <CopyField label={label} value={value} copyLabel={copyLabel} />
      {children}
      <div className="actions">
        <button type="button" className="ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
