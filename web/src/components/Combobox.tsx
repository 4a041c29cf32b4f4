import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import './Combobox.css';

export interface ComboboxProps<T> {
  /** The input's id (its `<label htmlFor>` names it). */
  id: string;
  value: string;
  onChange: (text: string) => void;
  /** The suggestions for the text as it is now (already filtered by whoever fetched them). */
  options: readonly T[];
  optionKey: (o: T) => string;
  /** The option's content: its name and a short hint. */
  renderOption: (o: T) => ReactNode;
  onSelect: (o: T) => void;
  /** The suggestions for the text as it is now are still being fetched (the old ones stay shown;
   * Enter waits for the new ones). */
  loading?: boolean;
  /** Said in the list when the text matches nothing; nothing shown when omitted. */
  emptyText?: string;
  /** The name of the popup list. */
  listLabel: string;
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'onKeyDown' | 'role'>;
  inputRef?: React.Ref<HTMLInputElement>;
}

/**
 * An editable combobox with a listbox popup (the WAI-ARIA APG pattern, list autocomplete with
 * automatic selection): typing filters and opens the list with the first option active;
 * ArrowDown/ArrowUp move (and open a closed list), Enter chooses the active option, Escape closes
 * the list and a second Escape clears the text. Focus stays in the input; the active option is
 * named by `aria-activedescendant`. Enter with the list closed is left to the form (it submits).
 */
export function Combobox<T>({
  id,
  value,
  onChange,
  options,
  optionKey,
  renderOption,
  onSelect,
  loading,
  emptyText,
  listLabel,
  inputProps,
  inputRef,
}: ComboboxProps<T>) {
  const listId = `${id}-list`;
  const statusId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  // New suggestions: the first is active while the list is open (automatic selection).
  const keysNow = options.map(optionKey).join('\n');
  useEffect(() => {
    setActive(options.length ? 0 : -1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keysNow]);

  // Enter pressed while the matches for the text were still on their way: chosen once they are in,
  // so a quick typist never gets a match of what was typed before.
  const pendingEnter = useRef(false);
  useEffect(() => {
    if (!pendingEnter.current || loading) return;
    pendingEnter.current = false;
    if (options.length) choose(options[0]!);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loading, keysNow]);

  const shown = open && (options.length > 0 || (!!emptyText && !loading && value.trim() !== ''));
  const activeId = shown && active >= 0 && active < options.length ? `${id}-opt-${active}` : undefined;

  useEffect(() => {
    if (!activeId) return;
    const el = document.getElementById(activeId);
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const choose = (o: T) => {
    setOpen(false);
    onSelect(o);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    pendingEnter.current = false;
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(options.length ? 0 : -1);
        } else if (options.length) setActive((a) => (a + 1) % options.length);
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(options.length - 1);
        } else if (options.length) setActive((a) => (a <= 0 ? options.length - 1 : a - 1));
        break;
      case 'Enter':
        if (open && loading && value.trim() !== '') {
          e.preventDefault();
          pendingEnter.current = true;
        } else if (shown && active >= 0 && active < options.length) {
          e.preventDefault();
          choose(options[active]!);
        }
        break;
      case 'Escape':
        if (shown) {
          e.preventDefault();
          setOpen(false);
        } else if (value !== '') {
          e.preventDefault();
          onChange('');
        }
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  return (
    <div className="combobox">
      <input
        {...inputProps}
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-describedby={[inputProps?.['aria-describedby'], statusId].filter(Boolean).join(' ')}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(e.target.value.trim() !== '');
        }}
        onKeyDown={onKeyDown}
        onBlur={(e) => {
          setOpen(false);
          inputProps?.onBlur?.(e);
        }}
      />
      <ul id={listId} role="listbox" aria-label={listLabel} aria-busy={!!loading} className="combobox-list" hidden={!shown}>
        {shown &&
          options.map((o, i) => (
            <li
              key={optionKey(o)}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              // Keep focus in the input: the choice happens on click.
              onMouseDown={(e) => e.preventDefault()}
              onMouseMove={() => setActive(i)}
              onClick={() => choose(o)}
            >
              {renderOption(o)}
            </li>
          ))}
        {shown && options.length === 0 && emptyText ? (
          <li role="option" aria-disabled="true" aria-selected={false} className="combobox-empty">
            {emptyText}
          </li>
        ) : null}
      </ul>
      <span id={statusId} className="sr-only" aria-live="polite">
        {open && !loading && value.trim() !== '' ? (options.length ? `${options.length} suggestion${options.length === 1 ? '' : 's'}` : (emptyText ?? '')) : ''}
      </span>
    </div>
  );
}
