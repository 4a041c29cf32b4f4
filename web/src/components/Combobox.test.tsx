// @vitest-environment jsdom
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Combobox } from './Combobox';

const hops = ['Cascade', 'Centennial', 'Chinook', 'Citra', 'Columbus'];

/** A combobox over a fixed list, filtered as the caller of the real one filters (by the API). */
function Harness({ onSelect, onSubmit }: { onSelect?: (o: string) => void; onSubmit?: () => void }) {
  const [text, setText] = useState('');
  const options = text.trim() === '' ? [] : hops.filter((h) => h.toLowerCase().includes(text.trim().toLowerCase()));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
    >
      <label htmlFor="hop">New hop</label>
      <Combobox
        id="hop"
        value={text}
        onChange={setText}
        options={options}
        optionKey={(o) => o}
        renderOption={(o) => <span>{o}</span>}
        onSelect={(o) => {
          setText(o);
          onSelect?.(o);
        }}
        listLabel="Hop suggestions"
        emptyText="No match in the catalogue"
      />
    </form>
  );
}

/** The same, with matches that arrive 50 ms after the text changes (as from the API). */
function SlowHarness({ onSelect }: { onSelect: (o: string) => void }) {
  const [text, setText] = useState('');
  const [answered, setAnswered] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setAnswered(text), 50);
    return () => clearTimeout(t);
  }, [text]);
  const q = answered.trim().toLowerCase();
  const options = q === '' ? [] : hops.filter((h) => h.toLowerCase().includes(q));
  return (
    <>
      <label htmlFor="hop">New hop</label>
      <Combobox
        id="hop"
        value={text}
        onChange={setText}
        options={options}
        optionKey={(o) => o}
        renderOption={(o) => <span>{o}</span>}
        onSelect={onSelect}
        loading={answered !== text}
        listLabel="Hop suggestions"
      />
    </>
  );
}

afterEach(cleanup);

describe('Combobox', () => {
  it('is an ARIA combobox that opens a listbox as one types, the first option active', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'New hop' });
    expect(box.getAttribute('aria-expanded')).toBe('false');
    const listId = box.getAttribute('aria-controls');
    expect(listId).toBeTruthy();

    await user.type(box, 'c');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    const list = screen.getByRole('listbox', { name: 'Hop suggestions' });
    expect(list.id).toBe(listId);
    const opts = screen.getAllByRole('option');
    expect(opts.map((o) => o.textContent)).toEqual(hops);
    expect(box.getAttribute('aria-activedescendant')).toBe(opts[0]!.id);
    expect(opts[0]!.getAttribute('aria-selected')).toBe('true');

    await user.type(box, 'it');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Citra']);
  });

  it('moves with ArrowDown and ArrowUp (wrapping) and chooses with Enter', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    const onSubmit = vi.fn();
    render(<Harness onSelect={onSelect} onSubmit={onSubmit} />);
    const box = screen.getByRole('combobox', { name: 'New hop' });
    await user.type(box, 'c');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    let opts = screen.getAllByRole('option');
    expect(box.getAttribute('aria-activedescendant')).toBe(opts[2]!.id);
    await user.keyboard('{ArrowUp}');
    expect(box.getAttribute('aria-activedescendant')).toBe(opts[1]!.id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    opts = screen.getAllByRole('option');
    expect(box.getAttribute('aria-activedescendant')).toBe(opts[4]!.id);
    expect(opts[4]!.getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith('Columbus');
    // Enter chose; it did not submit the form.
    expect(onSubmit).not.toHaveBeenCalled();
    expect((box as HTMLInputElement).value).toBe('Columbus');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.hasAttribute('aria-activedescendant')).toBe(false);
    expect(document.activeElement).toBe(box);

    // With the list closed, Enter is the form's.
    await user.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('closes on the first Escape and clears on the second', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'New hop' }) as HTMLInputElement;
    await user.type(box, 'ci');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(box.value).toBe('ci');
    await user.keyboard('{Escape}');
    expect(box.value).toBe('');
  });

  it('opens a closed list with ArrowDown without typing', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'New hop' });
    await user.type(box, 'ch');
    await user.keyboard('{Escape}');
    await user.keyboard('{ArrowDown}');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Chinook']);
  });

  it('says when nothing matches, and chooses by click', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<Harness onSelect={onSelect} />);
    const box = screen.getByRole('combobox', { name: 'New hop' });
    await user.type(box, 'zz');
    expect(screen.getByRole('option').textContent).toBe('No match in the catalogue');
    expect(box.hasAttribute('aria-activedescendant')).toBe(false);
    await user.keyboard('{Enter}'); // nothing to choose
    expect(onSelect).not.toHaveBeenCalled();
    await user.clear(box);
    await user.type(box, 'cas');
    await user.click(screen.getByRole('option', { name: 'Cascade' }));
    expect(onSelect).toHaveBeenCalledWith('Cascade');
    expect(document.activeElement).toBe(box);
  });
  it('waits for the matches of what was typed when Enter comes first', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(<SlowHarness onSelect={onSelect} />);
    const box = screen.getByRole('combobox', { name: 'New hop' });
    await user.type(box, 'c');
    await act(() => new Promise((r) => setTimeout(r, 80)));
    expect(screen.getAllByRole('option')).toHaveLength(5); // Cascade first
    await user.type(box, 'olu{Enter}');
    expect(onSelect).not.toHaveBeenCalled();
    await act(() => new Promise((r) => setTimeout(r, 80)));
    expect(onSelect).toHaveBeenCalledWith('Columbus');
  });
});
