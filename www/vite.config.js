// The page is served as static files; `base: './'` keeps it working from any path.
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2048 },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
