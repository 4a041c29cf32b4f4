import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { useSignOut } from '../auth/api';
import type { Schemas } from '../api/client';
import { OfflineStatus } from '../offline/OfflineStatus';
import { AlertsLink } from '../alerts/AlertsLink';

const links = [
  ['/', 'Home'],
  ['/recipes', 'Recipes'],
  ['/sessions', 'Brew sessions'],
  ['/inventory', 'Inventory'],
  ['/ingredients', 'Ingredients'],
  ['/equipment', 'Equipment'],
  ['/devices', 'Devices'],
  ['/webhooks', 'Webhooks'],
  ['/mqtt', 'MQTT'],
  ['/assistant', 'Assistant'],
  ['/tools', 'Tools'],
  ['/account', 'Account'],
] as const;

/**
 * Each page's title is its heading ("Pale ale · wort"), and after a navigation focus moves to that
 * heading, so a screen reader announces the new page and the keyboard starts there. Pages load
 * lazily and their heading can change (a recipe renamed), so the heading is watched rather than
 * read once. The first page of a visit keeps the browser's own focus (at the top, before the skip
 * link).
 */
// Module state, not component state: each route renders its own Layout, so a ref would forget.
let firstPageOfVisit = true;
// The heading handled last: right after a navigation the previous page can still be on screen
// (its code or data loading), and its heading must not be mistaken for the new one.
let lastHeading: { element: Element; text: string } | null = null;

function usePageHeading(main: React.RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  useEffect(() => {
    const root = main.current;
    if (!root) return;
    const moveFocus = !firstPageOfVisit;
    firstPageOfVisit = false;
    const previous = lastHeading;
    let focused = false;
    const apply = () => {
      const h1 = root.querySelector('h1');
      const text = h1?.textContent?.trim();
      if (!h1 || !text) return;
      if (!focused && previous && previous.element === h1 && previous.text === text) return;
      document.title = `${text} · wort`;
      lastHeading = { element: h1, text };
      if (moveFocus && !focused) {
        focused = true;
        if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
        (h1 as HTMLElement).focus();
      }
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [pathname, main]);
}

export function Layout({ user, children }: { user: Schemas['UserBody']; children: React.ReactNode }) {
  const signOut = useSignOut();
  const main = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On a phone the links, the name and Sign out collapse behind one Menu button (below 760 px).
  const [menuOpen, setMenuOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => setMenuOpen(false), [pathname]);
  usePageHeading(main);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header
        className={menuOpen ? 'top menu-open' : 'top'}
        onKeyDown={(e) => {
          // Escape closes the open menu and leaves focus on its button.
          if (e.key === 'Escape' && menuOpen) {
            setMenuOpen(false);
            toggle.current?.focus();
          }
        }}
      >
        <div className="brand" aria-hidden="true">
          <span className="logo">◉</span> wort
        </div>
        <AlertsLink />
        <button
          ref={toggle}
          type="button"
          className="ghost menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav account-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
        <nav aria-label="Main" id="main-nav">
          <ul>
            {links.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/'}>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who" id="account-menu">
          <span className="user-name" title={user.email}>
            {user.name}
          </span>
          <button type="button" className="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <OfflineStatus user={user.id} />
      <main id="main" tabIndex={-1} ref={main}>
        {children}
      </main>
    </>
  );
}
