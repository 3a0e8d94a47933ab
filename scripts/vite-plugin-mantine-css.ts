import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/*
 * Mantine's styles by component, where they are used (docs/benchmarks.md "bench:lighthouse": the CSS that blocks the first
 * paint is only what the first screen needs).
 *
 * Instead of the whole of @mantine/core/styles.css (295 kB, 32 kB brotli) in the entry, every
 * module that imports components from '@mantine/core' — ours and those of @mantine/dates,
 * notifications, tiptap and charts alike — gets `import '@mantine/core/styles/<Component>.layer.css'`
 * for each component it uses and every component those use in turn (found by following the
 * imports of @mantine/core's own ES modules: Select brings Combobox, Input, Popover, ScrollArea…).
 * Vite then puts each stylesheet beside the chunk that needs it, and loads it before that chunk
 * runs. The entry keeps only the baseline, the global rules and the default CSS variables
 * (client/src/main.tsx).
 *
 * The files are the `.layer.css` ones: Mantine's rules sit in `@layer mantine`, so the app's own
 * (unlayered) CSS wins whatever order the chunks' stylesheets arrive in.
 */

const require = createRequire(import.meta.url);

type CoreMap = { exportToFile: Map<string, string>; cssFor: Map<string, string[]> };

function buildCoreMap(): CoreMap {
  const entry = require.resolve('@mantine/core');
  const pkgDir = entry.slice(0, entry.lastIndexOf(`${path.sep}@mantine${path.sep}core${path.sep}`) + `${path.sep}@mantine${path.sep}core`.length);
  const esm = path.join(pkgDir, 'esm');
  const index = readFileSync(path.join(esm, 'index.mjs'), 'utf8');
  const exportToFile = new Map<string, string>();
  for (const m of index.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"(\.\/[^"]+)";/gm)) {
    const file = path.join(esm, m[2]!);
    for (const spec of m[1]!.split(',')) {
      const [imported, local] = spec.trim().split(/\s+as\s+/);
      const name = (local ?? imported)?.trim();
      if (name) exportToFile.set(name, file);
    }
  }
  const componentsDir = path.join(esm, 'components') + path.sep;
  // Some styled parts live under utils/ (InlineInput: the box-and-label layout of Checkbox, Radio
  // and Switch); without their stylesheet a checkbox's label falls below the box.
  const utilsDir = path.join(esm, 'utils') + path.sep;
  const stylesDir = path.join(pkgDir, 'styles');
  const importsOf = new Map<string, string[]>();
  const relImports = (file: string): string[] => {
    let r = importsOf.get(file);
    if (!r) {
      const code = existsSync(file) ? readFileSync(file, 'utf8') : '';
      r = [...code.matchAll(/^import\s*(?:[^"]*?from\s*)?"(\.{1,2}\/[^"]+)";/gm)].map((x) => path.resolve(path.dirname(file), x[1]!));
      importsOf.set(file, r);
    }
    return r;
  };
  const cssFor = new Map<string, string[]>();
  const cssOfFile = (start: string): string[] => {
    const seen = new Set<string>();
    const dirs: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      // Dependencies first, so that (within the layer) a component's rules follow those it builds on.
      for (const dep of relImports(file)) visit(dep);
      const base = file.startsWith(componentsDir) ? componentsDir : file.startsWith(utilsDir) ? utilsDir : null;
      if (base) {
        const dir = file.slice(base.length).split(path.sep)[0]!;
        if (!dirs.includes(dir) && existsSync(path.join(stylesDir, `${dir}.layer.css`))) dirs.push(dir);
      }
    };
    visit(start);
    return dirs.map((d) => `@mantine/core/styles/${d}.layer.css`);
  };
  for (const [name, file] of exportToFile) cssFor.set(name, cssOfFile(file));
  return { exportToFile, cssFor };
}

/** The named imports of every `import { … } from '@mantine/core'` in `code` (types included; they have no CSS). */
export function mantineCoreImports(code: string): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']@mantine\/core["']/g)) {
    for (const spec of m[1]!.split(',')) {
      const name = spec
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

let coreMap: CoreMap | undefined;
/** The stylesheets, in order, that the @mantine/core exports `names` need. */
export function mantineCssFor(names: string[]): string[] {
  coreMap ??= buildCoreMap();
  const css: string[] = [];
  for (const name of names) for (const f of coreMap.cssFor.get(name) ?? []) if (!css.includes(f)) css.push(f);
  return css;
}

export function mantineCss(): Plugin {
  return {
    name: 'pm:mantine-css-by-component',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.(?:[cm]?[jt]sx?)$/.test(id.split('?')[0]!) || id.includes('/@mantine/core/')) return null;
      if (!code.includes('@mantine/core')) return null;
      const css = mantineCssFor(mantineCoreImports(code));
      if (css.length === 0) return null;
      // On the first line, so that the module's own lines keep their numbers.
      return { code: `${css.map((f) => `import '${f}';`).join('')}${code}`, map: null };
    },
  };
}
