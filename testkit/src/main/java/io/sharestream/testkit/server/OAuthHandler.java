package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An OAuth 2.0 token endpoint ({@code POST /oauth/token}) for profile version 2: the client credentials grant (HTTP
 * Basic client credentials, {@code grant_type=client_credentials}) and the JWT bearer grant of private-key profiles
 * (RFC 7523: the assertion's signature checked with the client's public key, its {@code iss}, {@code aud} and
 * {@code exp}). It issues random access tokens with {@code expires_in}, which the API then accepts as bearer tokens
 * until they expire.
 */
final class OAuthHandler implements HttpHandler {
  private final DeltaSharingServer server;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Long> issued = new ConcurrentHashMap<>();
  private volatile String clientId;
  private volatile String clientSecret;
  private volatile Duration lifetime = Duration.ofHours(1);
  private volatile String jwtClientId;
  private volatile String jwtIssuer;
  private volatile java.security.PublicKey jwtKey;

  OAuthHandler(DeltaSharingServer server) {
    this.server = server;
  }

  void configure(String id, String secret, Duration tokenLifetime) {
    this.clientId = id;
    this.clientSecret = secret;
    this.lifetime = tokenLifetime;
  }

  void configureJwt(String id, String issuer, java.security.PublicKey key, Duration tokenLifetime) {
    this.jwtClientId = id;
    this.jwtIssuer = issuer;
    this.jwtKey = key;
    this.lifetime = tokenLifetime;
  }

  boolean accepts(String token) {
    Long expiry = issued.get(token);
    return expiry != null && expiry > System.currentTimeMillis();
  }

  int tokensIssued() {
    return issued.size();
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    RequestLog.Entry entry = server.requests().add(new RequestLog.Entry(Endpoint.OAUTH_TOKEN,
        exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), null, null,
        exchange.getRequestHeaders().getFirst("User-Agent"), null));
    try {
      entry.status = respond(exchange);
    } finally {
      exchange.close();
    }
  }

  private int respond(HttpExchange exchange) throws IOException {
    Faults.Rule fault = server.faults().claim(Endpoint.OAUTH_TOKEN);
    if (fault != null && fault.kind == Faults.Kind.STATUS) {
      if (fault.retryAfterSeconds != null) {
        exchange.getResponseHeaders().set("Retry-After", Integer.toString(fault.retryAfterSeconds));
      }
      return error(exchange, fault.status, "temporarily_unavailable");
    }
    if (!exchange.getRequestMethod().equalsIgnoreCase("POST")) {
      return error(exchange, 405, "invalid_request");
    }
    Map<String, String> form = new HashMap<>();
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    if ("urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))) {
      if (jwtKey == null || !validAssertion(form.get("assertion"))) {
        return error(exchange, 400, "invalid_grant");
      }
    } else if (!"client_credentials".equals(form.get("grant_type"))) {
      return error(exchange, 400, "unsupported_grant_type");
    } else if (clientId == null || !("Basic " + Base64.getEncoder().encodeToString(
        (clientId + ":" + clientSecret).getBytes(StandardCharsets.UTF_8)))
        .equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
      return error(exchange, 401, "invalid_client");
    }
    byte[] raw = new byte[24];
    random.nextBytes(raw);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    issued.put(token, System.currentTimeMillis() + lifetime.toMillis());
    ObjectNode out = Lines.JSON.createObjectNode();
    out.put("access_token", token);
    out.put("token_type", "bearer");
    out.put("expires_in", lifetime.getSeconds());
    if (form.containsKey("scope")) {
      out.put("scope", form.get("scope"));
    }
    return ApiHandler.sendJson(exchange, 200, out);
  }

  /** A JWT signed by the configured key (RS256 or ES256), issued by the client for the issuer, not expired. */
  private boolean validAssertion(String jwt) {
    if (jwt == null || jwt.split("\\.").length != 3) {
      return false;
    }
    String[] parts = jwt.split("\\.");
    try {
      Base64.Decoder url = Base64.getUrlDecoder();
      com.fasterxml.jackson.databind.JsonNode header = Lines.JSON.readTree(url.decode(parts[0]));
      com.fasterxml.jackson.databind.JsonNode claims = Lines.JSON.readTree(url.decode(parts[1]));
      byte[] signature = url.decode(parts[2]);
      String alg = header.path("alg").asText();
      java.security.Signature verifier;
      if (alg.equals("RS256")) {
        verifier = java.security.Signature.getInstance("SHA256withRSA");
      } else if (alg.equals("ES256")) {
        verifier = java.security.Signature.getInstance("SHA256withECDSAinP1363Format");
      } else {
        return false;
      }
      verifier.initVerify(jwtKey);
      verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      return verifier.verify(signature) && jwtClientId.equals(claims.path("iss").asText())
          && jwtIssuer.equals(claims.path("aud").asText())
          && claims.path("exp").asLong() > System.currentTimeMillis() / 1000;
    } catch (IOException | java.security.GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  private static int error(HttpExchange exchange, int status, String code) throws IOException {
    return ApiHandler.sendJson(exchange, status, Lines.JSON.createObjectNode().put("error", code));
  }
}
