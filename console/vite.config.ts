import { defineConfig } from "vite";

// Served under /console/; hashed asset names may be cached for a year.
export default defineConfig({
  base: "/console/",
  build: { outDir: "dist", emptyOutDir: true, assetsDir: "assets", target: "es2022", reportCompressedSize: false },
});
