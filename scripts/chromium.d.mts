// The type of chromium.mjs for playwright.config.ts: Playwright's launch options.
import type { LaunchOptions } from '@playwright/test';

export declare const CHROMIUM: LaunchOptions;
