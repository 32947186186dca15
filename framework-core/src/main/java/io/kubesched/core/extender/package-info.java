/**
 * kube-scheduler's HTTP extender: {@link io.kubesched.core.extender.HttpExtender}, the client the
 * scheduler builds for every {@code extenders[]} entry of its configuration, and {@link
 * io.kubesched.core.extender.ExtenderWire}, the JSON messages of the protocol (also used to serve a
 * profile as an extender).
 */
package io.kubesched.core.extender;
