/** Every figure, in the order they run. */
import type { Figure } from "../support/figure";
import { dataSourcesFigure } from "./data-sources";
import { emulatorThroughputFigure } from "./emulator-throughput";
import { engineFigure } from "./engine";
import { engineScaleFigure } from "./engine-scale";
import { onboardingFigure } from "./onboarding";
import { rateLimitFigure } from "./rate-limit";
import { scaleOutFigure } from "./scale-out";
import { sdkOverheadFigure } from "./sdk-overhead";
import { sizesFigure } from "./sizes";

/** The figures `bench/run.ts` runs, in this order; `--only` picks by id or number. */
export const figures: Figure[] = [
  engineFigure,
  dataSourcesFigure,
  sdkOverheadFigure,
  emulatorThroughputFigure,
  sizesFigure,
  engineScaleFigure,
  rateLimitFigure,
  onboardingFigure,
  scaleOutFigure,
];
