import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { blueprintCssSplit } from './build/blueprintCss.ts';
import { blueprintIconNames } from './build/blueprintIconNames.ts';
import { blueprintText } from './build/blueprintText.ts';
import { iconChunks } from './build/iconChunks.ts';
import { precompress } from './build/precompress.ts';
import { signInChunk } from './build/signInChunk.ts';

/** Chunks whose whole import graph is fetched at once when they load (see build.modulePreload). */
const WHOLE_GRAPH =
  /\/(routeQueries|MainLayout|CustomersScreen|ProfileLayout|ProfileScreen|signInSession)-[\w-]+\.js$/;

const serverUrl = process.env.STUDIO_SERVER_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), blueprintCssSplit(), blueprintIconNames(), blueprintText(), precompress()],
  resolve: {
    // simple-peer's package entry expects Node globals; its prebuilt browser bundle does not.
    alias: [{ find: /^simple-peer$/, replacement: 'simple-peer/simplepeer.min.js' }],
  },
  build: {
    target: 'es2023',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 800,
    modulePreload: {
      // The entry lists, for every lazy screen, the files to fetch alongside it; keeping only the stylesheets
      // there (the browser fetches a chunk's scripts as it imports them) keeps the sign-in page's first load
      // small as screens are added.
      // The exceptions: the query side of a navigation (imported by the route table's chunk, so the
      // entry does not list it) and the screens of a reviewer's first page load and most frequent click (the
      // shell, the customers list, the profile) and the sign-in's session machine (loaded after the sign-in
      // page has shown) fetch all their scripts at once, in parallel with their stylesheets, instead of one
      // wave of imports after another.
      resolveDependencies: (file, deps, { hostType }) =>
        hostType === 'js' && !WHOLE_GRAPH.test(file) ? deps.filter((dep) => dep.endsWith('.css')) : deps,
    },
    // The studio, and the customer's join page of a video call (served by the server as /customer.html).
    rollupOptions: {
      input: { studio: 'index.html', customer: 'customer.html' },
      output: { codeSplitting: { groups: [iconChunks, signInChunk(import.meta.dirname)] } },
    },
  },
  // The reference server serves the built studio itself; `vite preview` is a bare static server.
  preview: { proxy: {} },
  server: {
    proxy: {
      '/api': serverUrl,
      '/storage': serverUrl,
      '/runtime-config.js': serverUrl,
      '/socket.io': { target: serverUrl, ws: true },
    },
  },
});
