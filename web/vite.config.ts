/// <reference types="vitest" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.WORT_API_URL ?? 'http://127.0.0.1:18080';

// The headers the wort binary sends with the app (docs/security.md), so `vite preview` runs it the same way.
export const appHeaders = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

export default defineConfig({
  plugins: [react()],
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
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
