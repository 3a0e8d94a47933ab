import { Affix, Button, Transition } from '@mantine/core';
import { useWindowScroll } from '@mantine/hooks';
import { IconArrowUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** A button that appears once the page is scrolled and takes the reader back up. */
export function ScrollToTop() {
  const { t } = useTranslation();
  const [scroll, scrollTo] = useWindowScroll();
  return (
    <Affix position={{ bottom: 80, right: 20 }}>
      <Transition transition="slide-up" mounted={scroll.y > 300}>
        {(style) => (
          <Button style={style} leftSection={<IconArrowUp size={16} />} onClick={() => scrollTo({ y: 0 })} aria-label={t('actions.scrollTop')}>
            {t('actions.scrollTop')}
          </Button>
        )}
      </Transition>
    </Affix>
  );
}
