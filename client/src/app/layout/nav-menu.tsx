import { Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './layout.module.css';
import type { NavLinkItem } from './nav-model';
import { CREATE_QUESTION_KEY, onCreateQuestionClick } from './question-dialog';
import { useSession } from '../../hooks/use-session';

/**
 * A drop-down of the navigation bar (Questions, Reports). Only signed-in users see one, so it is
 * a lazy chunk (Menu brings Popover and floating-ui): guests never download it.
 */
export default function NavMenu({ label, items, position }: { label: 'nav.questions' | 'nav.reports'; items: NavLinkItem[]; position: 'bottom-start' | 'bottom-end' }) {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Menu trigger="click-hover" position={position} withinPortal>
      <Menu.Target>
        <Button variant="subtle" rightSection={<IconChevronDown size={14} />} className={classes.menuButton}>
          {t(label)}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((item) => (
          <Menu.Item
            key={item.key}
            component={Link}
            to={item.to}
            // Create New Question opens the editor in a dialog.
            onClick={item.key === CREATE_QUESTION_KEY ? (e: React.MouseEvent) => onCreateQuestionClick(e, session) : undefined}
          >
            {t(item.label)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
