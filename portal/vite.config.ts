import { defineConfig } from "vite";

// The page is served by aopd under /portal/; hashed asset names let aopd cache them for a year.
export default defineConfig({
  base: "/portal/",
  build: { outDir: "dist", emptyOutDir: true, assetsDir: "assets", target: "es2022", reportCompressedSize: false },
});
