/** Helpers shared by the default plugins: score normalisation and event object access. */
package io.kubesched.plugins.helper;
