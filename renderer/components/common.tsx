/** Small presentational building blocks shared by the screens. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_TONE, type ItemStatus } from '../../shared/contract/status';
import { prettyJson, statusLabel } from '../format';

/** A coloured pill for an item's status, any kind (one vocabulary: shared/contract/status.ts). */
export function StatusBadge({ status }: { status: ItemStatus }) {
  useTranslation('common'); // re-render on a language change
  return <span className={`badge status-${status} tone-${STATUS_TONE[status]}`}>{statusLabel(status)}</span>;
}

/** A coloured pill with free text (server and call statuses). */
export function Pill({ tone, children, testId }: { tone: 'ok' | 'warn' | 'error' | 'info' | 'muted'; children: ReactNode; testId?: string }) {
  return (
    <span className={`badge tone-${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** A message box across the pane: errors in red, warnings in amber, outcomes in their colour. */
export function Banner({
  tone,
  title,
  children,
  testId,
}: {
  tone: 'error' | 'warn' | 'ok' | 'info' | 'muted';
  title?: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`banner tone-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {title && <strong className="banner-title">{title}</strong>}
      {children && <div className="banner-body">{children}</div>}
    </div>
  );
}

/** A collapsible "Raw JSON" view of any value. */
export function RawJson({ value, label, testId }: { value: unknown; label?: string; testId?: string }) {
  const { t } = useTranslation('common');
  // Serialised only while open: a review re-renders on every keystroke, and a request with
  // megabytes of media took ~25 ms per keystroke to pretty-print while nobody looked at it.
  const [open, setOpen] = useState(false);
  return (
    <details className="raw-json" data-testid={testId} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{label ?? t('rawJson')}</summary>
      {open && <pre className="mono-box">{prettyJson(value)}</pre>}
    </details>
  );
}

/** A titled block of a pane. */
export function Section({ title, actions, children, testId }: { title: ReactNode; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="section" data-testid={testId}>
      <header className="section-head">
        <h3>{title}</h3>
        {actions && <div className="section-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** A label / value grid row set. */
export function Facts({ rows }: { rows: Array<[string, ReactNode] | false | undefined | null> }) {
  return (
    <dl className="facts">
      {rows.map((row) =>
        row ? (
          <div key={row[0]} className="fact">
            <dt>{row[0]}</dt>
            <dd>{row[1]}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}

/** Shown in a pane when nothing is selected or there is nothing to show. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/** An action's failure, shown next to its buttons. */
export function ActionError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="action-error" role="alert">
      {error}
    </p>
  );
}

/** The nearest ancestor of `el` that scrolls vertically, or null. */
function scrollAreaOf(el: HTMLElement): HTMLElement | null {
  for (let a = el.parentElement; a; a = a.parentElement) if (/(auto|scroll)/.test(getComputedStyle(a).overflowY)) return a;
  return null;
}

/** Room kept between a sticky bar and what focus scrolls to, in px. */
const BAR_MARGIN_PX = 8;

/**
 * The sticky bar at the bottom of a review or editor (`.action-bar`): its buttons stay in sight
 * while the pane scrolls. Its scroll area's `scroll-padding-bottom` follows the bar's height while
 * it is mounted, so a control that focus goes to (Tab, a shortcut) is scrolled above the bar, never
 * left under it.
 */
export function ActionBar({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const bar = ref.current;
    const area = bar && scrollAreaOf(bar);
    if (!bar || !area) return;
    let set = '';
    const fit = () => {
      set = `${bar.offsetHeight + BAR_MARGIN_PX}px`;
      area.style.scrollPaddingBottom = set;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(bar);
    return () => {
      observer.disconnect();
      if (area.style.scrollPaddingBottom === set) area.style.scrollPaddingBottom = '';
    };
  }, []);
  return (
    <footer className="action-bar" ref={ref}>
      {children}
    </footer>
  );
}
