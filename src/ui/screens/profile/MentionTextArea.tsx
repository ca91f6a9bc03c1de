/**
 * The note editor's text area with @mentions: typing `@` offers the colleagues of the company,
 * filtered by what follows; ↑/↓ move, Enter or Tab inserts `@handle `, Escape closes. The list is a listbox the
 * text area controls (combobox pattern), so screen readers follow the active colleague.
 */
import { Classes, Menu, MenuItem, TextArea } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Colleague, mentionAt } from '#contract/notifications';
import { listColleagues, notificationKeys } from '../../../services/api/notifications';
import type { TextInputProps } from '../../components/TextForm';

const SHOWN = 8;

function matching(colleagues: Colleague[], query: string): Colleague[] {
  const q = query.toLocaleLowerCase();
  return colleagues
    .filter(
      (c) =>
        c.handle.startsWith(q) ||
        c.email.toLocaleLowerCase().startsWith(q) ||
        c.name
          .toLocaleLowerCase()
          .split(/\s+/)
          .some((word) => word.startsWith(q)),
    )
    .slice(0, SHOWN);
}

export function MentionTextArea({ id, placeholder, value, onValueChange, intent }: TextInputProps) {
  const { t } = useTranslation('notifications');
  const listId = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const typing = mentionAt(value, caret);
  const colleagues = useQuery({
    queryKey: notificationKeys.colleagues(),
    queryFn: ({ signal }) => listColleagues({ signal }),
    enabled: typing !== null,
    staleTime: 60_000,
  });
  const open = typing !== null && dismissed !== typing.start && colleagues.data !== undefined;
  const options = open && typing ? matching(colleagues.data ?? [], typing.query) : [];
  const current = Math.min(active, Math.max(options.length - 1, 0));

  const pick = (colleague: Colleague) => {
    if (!typing) return;
    const before = value.slice(0, typing.start);
    const after = value.slice(caret).replace(/^[\p{L}\p{N}._+-]*/u, '');
    const inserted = `@${colleague.handle} `;
    const next = `${before}${inserted}${after.replace(/^ /, '')}`;
    onValueChange(next);
    const at = before.length + inserted.length;
    setCaret(at);
    setActive(0);
    requestAnimationFrame(() => area.current?.setSelectionRange(at, at));
  };

  return (
    <div className="studio-mention">
      <TextArea
        id={id}
        inputRef={area}
        fill
        placeholder={placeholder}
        value={value}
        intent={intent}
        role="combobox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={open && options.length > 0 ? `${listId}-${current}` : undefined}
        aria-describedby={`${listId}-hint`}
        onChange={(event) => {
          onValueChange(event.currentTarget.value);
          setCaret(event.currentTarget.selectionStart);
          setActive(0);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={(event) => {
          if (!open || !typing) return;
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            setDismissed(typing.start);
          } else if (options.length === 0) {
            return;
          } else if (event.key === 'ArrowDown') {
            event.preventDefault();
            setActive((current + 1) % options.length);
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((current - 1 + options.length) % options.length);
          } else if (event.key === 'Enter' || event.key === 'Tab') {
            const chosen = options[current];
            if (!chosen) return;
            event.preventDefault();
            pick(chosen);
          }
        }}
        onBlur={() => typing && setDismissed(typing.start)}
        onFocus={() => setDismissed(null)}
      />
      <p id={`${listId}-hint`} className={`${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL} studio-mention-hint`}>
        {t('mentions.hint')}
      </p>
      {open && typing && (
        <Menu
          id={listId}
          role="listbox"
          aria-label={t('mentions.suggestions')}
          className="studio-mention-list"
        >
          {options.length === 0 ? (
            <MenuItem roleStructure="none" disabled text={t('mentions.none', { query: typing.query })} />
          ) : (
            options.map((colleague, index) => (
              <MenuItem
                key={colleague.id}
                id={`${listId}-${index}`}
                roleStructure="listoption"
                selected={index === current}
                active={index === current}
                text={colleague.name}
                label={`@${colleague.handle}`}
                // Keeps the focus in the text area while the mouse picks.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(colleague);
                }}
              />
            ))
          )}
        </Menu>
      )}
    </div>
  );
}
