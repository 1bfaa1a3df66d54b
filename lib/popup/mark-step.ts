/**
 * Marks on the popup's start path, `performance.mark('popup:<step>')`: the bench (scripts/bench)
 * reports their medians, so it says where the time to the verdict goes. A mark costs microseconds.
 */
export const markStep = (step: string): void => {
  performance.mark(`popup:${step}`);
};
