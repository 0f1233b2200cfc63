// WAI-ARIA tabs: click or arrow keys move the selection, only the selected tab is in the tab
// order, and its panel is the only one shown.

export interface Tabs {
  select(id: string): void;
  selected(): string;
}

export function tabs(list: HTMLElement, onSelect?: (id: string) => void): Tabs {
  const all = Array.from(list.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
  const panel = (tab: HTMLButtonElement): HTMLElement | null => document.getElementById(tab.getAttribute('aria-controls') ?? '');

  function select(id: string, focus = false): void {
    for (const tab of all) {
      const on = tab.id === id;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      const p = panel(tab);
      if (p) p.hidden = !on;
      if (on && focus) tab.focus();
    }
    onSelect?.(id);
  }

  for (const tab of all) {
    tab.addEventListener('click', () => select(tab.id));
    tab.addEventListener('keydown', (e) => {
      const i = all.indexOf(tab);
      const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? all.length - 1 : null;
      if (next === null) return;
      e.preventDefault();
      const target = all[(next + all.length) % all.length];
      if (target) select(target.id, true);
    });
  }

  return {
    select: (id) => select(id),
    selected: () => all.find((t) => t.getAttribute('aria-selected') === 'true')?.id ?? '',
  };
}
