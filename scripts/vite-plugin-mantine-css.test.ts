import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import { mantineCoreImports, mantineCssFor } from './vite-plugin-mantine-css';

const require = createRequire(import.meta.url);

test('the named imports from @mantine/core are read, types and renames included', () => {
  const code = `import { Button, type MantineTheme, Select as S } from '@mantine/core';\nimport { x } from 'other';\nimport type { BoxProps } from "@mantine/core";`;
  expect(mantineCoreImports(code)).toEqual(['Button', 'MantineTheme', 'Select', 'BoxProps']);
});

test('a component brings the styles of the components it is built on, those first', () => {
  const button = mantineCssFor(['Button']);
  expect(button).toContain('@mantine/core/styles/UnstyledButton.layer.css');
  expect(button.indexOf('@mantine/core/styles/UnstyledButton.layer.css')).toBeLessThan(button.indexOf('@mantine/core/styles/Button.layer.css'));
  const select = mantineCssFor(['Select']);
  for (const dep of ['Combobox', 'Input', 'Popover', 'ScrollArea']) expect(select).toContain(`@mantine/core/styles/${dep}.layer.css`);
  // Every file named exists; hooks and types bring none.
  for (const f of [...button, ...select]) expect(existsSync(require.resolve(f))).toBe(true);
  expect(mantineCssFor(['useMantineTheme', 'MantineTheme'])).toEqual([]);
});

test('a checkbox brings the box-and-label layout it shares with Radio and Switch (styles under utils/)', () => {
  for (const c of ['Checkbox', 'Radio', 'Switch']) {
    const css = mantineCssFor([c]);
    expect(css, c).toContain('@mantine/core/styles/InlineInput.layer.css');
    expect(css.indexOf('@mantine/core/styles/InlineInput.layer.css'), c).toBeLessThan(css.indexOf(`@mantine/core/styles/${c}.layer.css`));
  }
});
