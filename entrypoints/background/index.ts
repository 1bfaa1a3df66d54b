export default defineBackground(() => {
  // Listeners are registered here, synchronously (MV3: the worker may be woken by any event).
});
