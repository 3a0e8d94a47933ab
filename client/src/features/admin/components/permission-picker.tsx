import {
  type Announcements,
  DndContext,
  type CollisionDetection,
  type DragEndEvent,
  pointerWithin,
  rectIntersection,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Group, Paper, ScrollArea, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dropMove, grant, revoke } from '../lib/permission-moves';
import classes from './permission-picker.module.css';
import { permissionDescription } from '@/lib/built-in-labels';

export type PickerPermission = { id: string; permission: string; description: string };
type Side = 'restricted' | 'granted';

function Item({ p, side, selected, onToggle, disabled }: { p: PickerPermission; side: Side; selected: boolean; onToggle: () => void; disabled: boolean }) {
  const { t } = useTranslation('admin-access');
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: p.permission, data: { side }, disabled, attributes: { roleDescription: t('roles.draggable') } });
  return (
      <UnstyledButton
        title={permissionDescription(p) || p.permission}
        ref={setNodeRef}
        className={classes.item}
        data-selected={selected || undefined}
        data-dragging={isDragging || undefined}
        style={{ transform: CSS.Translate.toString(transform) }}
        onClick={onToggle}
        disabled={disabled}
        data-testid={`perm-${side}-${p.permission}`}
        {...listeners}
        {...attributes}
        // After dnd-kit's attributes (role, aria-roledescription): the selection state wins.
        aria-pressed={selected}
      >
        <Text size="sm" fw={500} className={classes.name}>
          {p.permission}
        </Text>
        {p.description && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {permissionDescription(p)}
          </Text>
        )}
      </UnstyledButton>
  );
}

function List({
  side,
  items,
  selected,
  onToggle,
  disabled,
}: {
  side: Side;
  items: PickerPermission[];
  selected: Set<string>;
  onToggle: (name: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('admin-access');
  const { setNodeRef, isOver } = useDroppable({ id: side });
  const [filter, setFilter] = useState('');
  const f = filter.trim().toUpperCase();
  const shown = f ? items.filter((p) => p.permission.includes(f) || p.description.toUpperCase().includes(f)) : items;
  const title = t(`picker.${side}`);
  return (
    <Paper withBorder p="xs" className={classes.list} data-over={isOver || undefined}>
      <Group justify="space-between" mb={6}>
        <Text fw={600} id={`picker-${side}-title`}>
          {title}
        </Text>
        <Badge variant="light" color={side === 'granted' ? 'green' : 'gray'}>
          {items.length}
        </Badge>
      </Group>
      <TextInput
        size="xs"
        mb={6}
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        placeholder={t('picker.filter')}
        aria-label={t('picker.filterList', { list: title })}
      />
      <ScrollArea.Autosize mah={320} type="auto">
        <div ref={setNodeRef} className={classes.drop} role="group" aria-labelledby={`picker-${side}-title`} data-testid={`picker-${side}`}>
          {shown.map((p) => (
            <Item key={p.id} p={p} side={side} selected={selected.has(p.permission)} onToggle={() => onToggle(p.permission)} disabled={disabled} />
          ))}
          {shown.length === 0 && (
            <Text size="xs" c="dimmed" ta="center" py="md">
              {t('picker.empty')}
            </Text>
          )}
        </div>
      </ScrollArea.Autosize>
    </Paper>
  );
}

/**
 * The two-list permission picker of the Roles screen (also used for a person's own permissions):
 * restricted on one side, granted on the other; items are selected by click and moved with
 * grant / revoke / grant all / revoke all, or dragged to the other list (dnd-kit, with its
 * keyboard sensor: focus an item, Space to lift, arrows to move, Space to drop).
 */
/** The list under the pointer; for keyboard drags (no pointer), the list the item overlaps. */
const collision: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length > 0 ? hits : rectIntersection(args);
};

export function PermissionPicker({
  permissions,
  granted,
  onChange,
  disabled = false,
}: {
  permissions: PickerPermission[];
  granted: string[];
  onChange: (granted: string[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('admin-access');
  const all = useMemo(() => permissions.map((p) => p.permission), [permissions]);
  const grantedSet = new Set(granted);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor));

  const toggle = (name: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(name)) n.delete(name);
      else n.add(name);
      return n;
    });
  const selectedOn = (side: Side) => [...selected].filter((n) => grantedSet.has(n) === (side === 'granted'));
  const apply = (next: string[]) => {
    setSelected(new Set());
    onChange(next);
  };

  const onDragEnd = (e: DragEndEvent) => {
    const target = e.over?.id === 'granted' || e.over?.id === 'restricted' ? e.over.id : null;
    const next = dropMove(all, granted, String(e.active.id), target);
    if (next.length !== granted.length) apply(next);
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('picker.dnd.start', { name: active.id }),
    onDragOver: ({ active, over }) => (over ? t('picker.dnd.over', { name: active.id, list: t(`picker.${over.id as Side}`) }) : t('picker.dnd.outside', { name: active.id })),
    onDragEnd: ({ active, over }) => (over ? t('picker.dnd.end', { name: active.id, list: t(`picker.${over.id as Side}`) }) : t('picker.dnd.cancel', { name: active.id })),
    onDragCancel: ({ active }) => t('picker.dnd.cancel', { name: active.id }),
  };

  const restrictedItems = permissions.filter((p) => !grantedSet.has(p.permission));
  const grantedItems = permissions.filter((p) => grantedSet.has(p.permission));
  const toGrant = selectedOn('restricted');
  const toRevoke = selectedOn('granted');

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('picker.dnd.instructions') } }}
    >
      <div className={classes.picker}>
        <List side="restricted" items={restrictedItems} selected={selected} onToggle={toggle} disabled={disabled} />
        <Stack gap={6} className={classes.buttons} justify="center" align="center">
          <Tooltip label={t('picker.grant')}>
            <ActionIcon variant="filled" color="green" aria-label={t('picker.grant')} disabled={disabled || toGrant.length === 0} onClick={() => apply(grant(all, granted, toGrant))}>
              <span aria-hidden className={classes.arrow}>›</span>
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('picker.grantAll')}>
            <ActionIcon variant="light" color="green" aria-label={t('picker.grantAll')} disabled={disabled || restrictedItems.length === 0} onClick={() => apply([...all])}>
              <span aria-hidden className={classes.arrow}>»</span>
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('picker.revoke')}>
            <ActionIcon variant="filled" color="red" aria-label={t('picker.revoke')} disabled={disabled || toRevoke.length === 0} onClick={() => apply(revoke(all, granted, toRevoke))}>
              <span aria-hidden className={classes.arrow}>‹</span>
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('picker.revokeAll')}>
            <ActionIcon variant="light" color="red" aria-label={t('picker.revokeAll')} disabled={disabled || grantedItems.length === 0} onClick={() => apply([])}>
              <span aria-hidden className={classes.arrow}>«</span>
            </ActionIcon>
          </Tooltip>
        </Stack>
        <List side="granted" items={grantedItems} selected={selected} onToggle={toggle} disabled={disabled} />
      </div>
    </DndContext>
  );
}
