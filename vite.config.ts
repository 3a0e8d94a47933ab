import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { MEDIA_CACHE } from './client/src/lib/media-precache';
import { mantineCss } from './scripts/vite-plugin-mantine-css';
import { precompress } from './scripts/vite-plugin-precompress';
import { mantineUseId } from './scripts/vite-plugin-mantine-use-id';
import { CLIENT_ALIAS } from './scripts/client-alias';
import { prerenderPages } from './scripts/vite-plugin-prerender';

/** Mantine's indigo 6, the theme's primary (filled) colour, and the page background. */
const THEME_COLOR = '#4c6ef5';
const BACKGROUND_COLOR = '#ffffff';

/**
 * The client lives in client/; the production build goes to dist/, which `npm start` serves.
 * The build's second, server-side pass (`isSsrBuild`: the first pages prerendered, see
 * scripts/vite-plugin-prerender.ts) uses the same sources and plugins but writes no
 * worker, no twins and no second prerender.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: 'client',
  publicDir: 'public',
  plugins: [
    // Mantine's styles by component, beside the chunks that use them (docs/benchmarks.md "bench:lighthouse").
    mantineCss(),
    // Mantine's useId without the random id it sets after the first commit (a second render of
    // every input, tab and popover; scripts/vite-plugin-mantine-use-id.ts).
    mantineUseId(),
    react(),
    ...(isSsrBuild ? [] : clientOnlyPlugins()),
  ],
  resolve: {
    // broadcast-channel's leader election (RxDB) gives up leadership on `pagehide`, not on the
    // deprecated `unload` (client/src/lib/unload-on-pagehide.ts).
    alias: [
      { find: 'unload', replacement: fileURLToPath(new URL('./client/src/lib/unload-on-pagehide.ts', import.meta.url)) },
      // `@/…` is client/src/… (docs/development.md): no import climbs more than two levels.
      CLIENT_ALIAS,
    ],
  },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    sourcemap: false,
    // scripts/bench-bundle.ts follows the entry's static imports through the manifest
    // (dist/.vite/manifest.json) to measure what a first visit downloads.
    manifest: true,
    // No preload links added by the app as it imports a lazy chunk, for the chunks that chunk
    // imports (the browser finds them as it reads the chunk); a lazy chunk's stylesheets are still
    // linked as it loads. Each link cost the main thread ~1 ms here (four on a phone) when a service
    // worker serves the files, and opening the exam list added ~80 of them, in two tasks
    // (docs/benchmarks.md "bench:lighthouse": total blocking time). Every visit after the first is served by the service worker, from
    // the device, where a preload gains nothing. A first visit's screens are named to the browser
    // by the server instead, in a Link header beside index.html, fetched off the main thread
    // (server/src/lib/route-preloads.ts); index.html keeps the entry's own links.
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] } } },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    // The API, and the uploaded images the server serves beside it (modules/media).
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
      '^/media/': { target: 'http://127.0.0.1:8080', changeOrigin: false },
      // The local PhonePe's hosted page (docs/payments.md).
      '^/sandbox/': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
}));

/** The plugins of the client build only: the worker and manifest, the prerendered pages, the twins. */
function clientOnlyPlugins(): PluginOption[] {
  return [
    // The service worker ("the app update worker", docs/pwa.md) and the web app manifest.
    VitePWA({
      strategies: 'generateSW',
      // A new version waits until the learner agrees ('Update available for the app.
      // Would you like to update?'): a reload in the middle of a timed test would be worse.
      registerType: 'prompt',
      // Registered by client/src/lib/pwa once the app is idle (docs/glossary.md "Fixed values"), from a lazy chunk, so
      // that workbox-window is not part of the first visit (bundle budget).
      injectRegister: false,
      devOptions: { enabled: false },
      manifest: {
        name: 'Pariksha Mitra',
        short_name: 'Pariksha Mitra',
        description: 'Mock tests and practice exams in Hindi and English, even without internet.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        lang: 'en',
        dir: 'ltr',
        theme_color: THEME_COLOR,
        background_color: BACKGROUND_COLOR,
        categories: ['education'],
        // Drawn by scripts/render-icons.ts. Maskable variants keep the drawing in the safe zone.
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // The installed app opens test files handed from phone to phone: the browser opens the
        // exam list with the file in window.launchQueue (docs/live-tests.md "On the receiving phone").
        // The type and extension are BUNDLE_MIME and BUNDLE_EXT (sync-protocol/src/bundle.ts), written
        // out because the config loads in Node, which cannot import the protocol's TypeScript;
        // e2e/pwa.spec.ts checks that they agree.
        file_handlers: [{ action: '/exam-list', accept: { 'application/vnd.pariksha-mitra.test': ['.pmtest'] } }],
      },
      // The page itself never shows the manifest icons (the browser keeps its own copy of an
      // installed app's icons): leaving them out of the precache saves ~220 kB on first install.
      includeManifestIcons: false,
      includeAssets: ['favicon.svg', 'icons/favicon-32.png', 'apple-touch-icon.png'],
      workbox: {
        // The app shell and every lazy chunk (exam list, test screen, editor, locale files…):
        // a learner who opened the app once can use any screen offline. Fonts: only the woff2
        // Devanagari faces (every browser that runs service workers reads woff2; the .woff
        // twins @fontsource also emits are never requested).
        globPatterns: ['index.html', 'assets/**/*.{js,css,woff2,svg,png,webp,jpg}'],
        // The .br and .gz twins of the build (precompress below) are how the server sends these
        // files, never files of their own: the worker fetches the originals and the browser
        // decodes them. Workbox's default ignore list, plus the twins.
        globIgnores: ['**/node_modules/**/*', '**/*.{br,gz}'],
        // Workbox's default (2 MiB), stated: the largest chunk is ~0.4 MB, and vite-plugin-pwa
        // fails the build if a matched file is ever bigger rather than silently leaving it out.
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
        // SPA routes (/about, /exam-list, …) get the precached index.html offline. The API is
        // never answered by the worker: no navigation fallback and no runtime caching for it
        // (replicated data lives in the local database, not in HTTP caches), except the public
        // answer-file key and the public campaigns below.
        navigateFallback: 'index.html',
        // /media/ too: an image opened in a tab is the image, never the app's page. /sandbox/: the
        // local PhonePe's hosted payment page is the server's (docs/payments.md).
        navigateFallbackDenylist: [/^\/api(?:\/|$)/, /^\/media\//, /^\/sandbox\//],
        // Uploaded images of questions (docs/authoring.md): their address is their content's hash, so a
        // cached copy is always right (cache-first). The page fills this cache with the images of
        // every set the replica downloads (client/src/lib/media-precache), so a test with images
        // runs offline; images met otherwise are added as they are shown. Only complete answers
        // (200) are kept. The function is copied into the worker as source: it may use nothing
        // from this file.
        runtimeCaching: [
          // The one API answer the worker keeps (docs/answer-file.md): the server's public answer-file
          // key, so that a device that met it once can make an answer file offline. Network
          // first (a new key is picked up at once), the last answer when the network fails.
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname === '/api/answer-file/key',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'answer-file-key',
              networkTimeoutSeconds: 5,
              expiration: { maxEntries: 1 },
              cacheableResponse: { statuses: [200] },
            },
          },
          // The public campaigns (docs/charity.md "API"): the list and each campaign page as last
          // seen, so that a visitor reads them offline (network first: online they are always
          // fresh). Only a public campaign's answer is kept (APPROVED, PAUSED, CLOSED), never an
          // owner's draft or a queued one, which a later reader of this device must not see.
          // Their images are /media/ files, kept by the rule below. The plugin is copied into the
          // worker as source: it may use nothing from this file.
          {
            urlPattern: ({ url, sameOrigin, request }) => sameOrigin && request.method === 'GET' && /^\/api\/campaigns(?:\/[^/]+)?$/.test(url.pathname),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'campaigns',
              networkTimeoutSeconds: 5,
              expiration: { maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60 },
              cacheableResponse: { statuses: [200] },
              matchOptions: { ignoreVary: true },
              plugins: [
                {
                  cacheWillUpdate: async ({ response }: { response: Response }) => {
                    if (response.status !== 200) return null;
                    try {
                      const body = (await response.clone().json()) as { data?: unknown };
                      if (Array.isArray(body.data)) return response;
                      const status = (body.data as { status?: unknown } | null)?.status;
                      return status === 'APPROVED' || status === 'PAUSED' || status === 'CLOSED' ? response : null;
                    } catch {
                      return null;
                    }
                  },
                },
              ],
            },
          },
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/media/'),
            handler: 'CacheFirst',
            options: {
              cacheName: MEDIA_CACHE,
              expiration: { maxEntries: 2000, maxAgeSeconds: 365 * 24 * 60 * 60 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
        // Web Push (docs/configuration.md "Push messages (Web Push)"): the push and notificationclick handlers, a static script of
        // client/public loaded into the generated worker (sw.js checks it for updates too).
        importScripts: ['push-sw.js'],
        cleanupOutdatedCaches: true,
        // The first worker takes over the page that installed it, so a learner who opened the
        // app once can reload it offline without another online visit. Updates still wait for
        // the prompt: a waiting worker activates (and claims) only after "Update".
        clientsClaim: true,
        // Hashed file names under assets/ are their own revision.
        dontCacheBustURLsMatching: /^assets\//,
      },
    }),
    // The home and login pages drawn at build time (docs/benchmarks.md "bench:lighthouse"), before the twins are made.
    prerenderPages(),
    // Brotli and gzip twins of every compressible file, after the worker is written (docs/benchmarks.md "bench:bundle").
    precompress(),
  ];
}
