/**
 * In-process fakes for end-to-end tests of code built on client-java: {@link
 * io.kubesched.testing.apiserver.FakeApiServer}, a Kubernetes API server keeping objects in memory
 * and speaking the real wire protocol, and {@link
 * io.kubesched.testing.apiserver.FakeExtenderServer}, a scripted scheduler-extender webhook. The
 * module depends on client-java and the JDK only, so framework-core's own tests can use it.
 */
package io.kubesched.testing.apiserver;
