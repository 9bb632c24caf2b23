package io.sharestream.common.client;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import javax.net.ssl.SSLSession;

/** A response whose body was wrapped (read timeout). */
final class DelegatingResponse implements HttpResponse<InputStream> {
  private final HttpResponse<InputStream> delegate;
  private final InputStream body;

  DelegatingResponse(HttpResponse<InputStream> delegate, InputStream body) {
    this.delegate = delegate;
    this.body = body;
  }

  @Override
  public int statusCode() {
    return delegate.statusCode();
  }

  @Override
  public HttpRequest request() {
    return delegate.request();
  }

  @Override
  public Optional<HttpResponse<InputStream>> previousResponse() {
    return delegate.previousResponse();
  }

  @Override
  public HttpHeaders headers() {
    return delegate.headers();
  }

  @Override
  public InputStream body() {
    return body;
  }

  @Override
  public Optional<SSLSession> sslSession() {
    return delegate.sslSession();
  }

  @Override
  public URI uri() {
    return delegate.uri();
  }

  @Override
  public HttpClient.Version version() {
    return delegate.version();
  }
}
