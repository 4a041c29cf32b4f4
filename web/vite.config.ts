/// <reference types="vitest" />
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.WORT_API_URL ?? 'http://127.0.0.1:18080';

// The headers the wort binary sends with the app (docs/security.md), so `vite preview` runs it the same way.
export const appHeaders = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/**
 * Emits `sw.js` (src/offline/sw.js) with the list of built files to cache and a version made of
 * their names: every release that changes a file is a new worker, so browsers pick it up.
 */
function serviceWorker(): Plugin {
  return {
    name: 'wort-service-worker',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => name !== 'index.html' && name !== 'sw.js')
        .map((name) => `/${name}`)
        .sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      const template = readFileSync(new URL('./src/offline/sw.js', import.meta.url), 'utf8');
      const source = template.replace('self.__WORT_PRECACHE__', JSON.stringify({ version, files }));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

export default defineConfig({
  plugins: [react(), serviceWorker()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // The server's CSP has no 'unsafe-inline': no inline polyfill script.
    modulePreload: { polyfill: false },
    cssCodeSplit: true,
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: {
      '/v1': { target: api, changeOrigin: false },
      '/api': { target: api, changeOrigin: false },
      '/ingest': { target: api, changeOrigin: false },
      // A shared recipe's public page is the server's HTML, not the app.
      '/shared': { target: api, changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    headers: appHeaders,
    proxy: {
      '/v1': { target: api, changeOrigin: false },
      '/api': { target: api, changeOrigin: false },
      '/ingest': { target: api, changeOrigin: false },
      // A shared recipe's public page is the server's HTML, not the app.
      '/shared': { target: api, changeOrigin: false },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
