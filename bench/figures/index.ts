/** Every figure, in the order they run. */
import type { Figure } from "../support/figure";
import { emulatorThroughputFigure } from "./emulator-throughput";

export const figures: Figure[] = [emulatorThroughputFigure];
