/**
 * The test kit of kubesched: {@link io.kubesched.testing.MakePod} and {@link
 * io.kubesched.testing.MakeNode} builders, {@link io.kubesched.testing.FakeClock}, {@link
 * io.kubesched.testing.StatusAssert} and fake plugins that count their calls. Plugin authors use it
 * at test scope.
 */
package io.kubesched.testing;
