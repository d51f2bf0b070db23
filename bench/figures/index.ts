/** Every figure, in the order they run. */
import type { Figure } from "../support/figure";
import { dataSourcesFigure } from "./data-sources";
import { emulatorThroughputFigure } from "./emulator-throughput";
import { sdkOverheadFigure } from "./sdk-overhead";

export const figures: Figure[] = [dataSourcesFigure, sdkOverheadFigure, emulatorThroughputFigure];
