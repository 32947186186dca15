/**
 * The {@code ImageLocality} plugin (extension points: PreScore, Score) and {@link
 * io.kubesched.plugins.imagelocality.ImageLocality#normalizedImageName(String)}.
 */
package io.kubesched.plugins.imagelocality;
