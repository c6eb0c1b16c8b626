// The types of build-web.mjs, for the tests that call it.
export declare const keptForMs: number;
export declare const keptBuilds: number;
export declare function buildDirsOf(outDir: string): { serverDir: string; archiveDir: string };
export declare function archiveAssets(
  outDir: string,
  archiveDir: string,
  now?: number,
): { builds: number; files: number; removed: number };
export declare function buildIdOf(outDir: string): string | null;
export declare function buildWeb(outDir?: string): Promise<void>;
export declare function buildEmbed(outDir: string): Promise<void>;
