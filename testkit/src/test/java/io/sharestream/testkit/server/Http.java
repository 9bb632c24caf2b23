package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Raw protocol calls for the kit's tests: plain java.net.http, no product code. */
final class Http {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  /** A whole response: status, headers, body text and its NDJSON lines parsed. */
  static final class Response {
    final int status;
    final HttpResponse<String> raw;

    Response(HttpResponse<String> raw) {
      this.status = raw.statusCode();
      this.raw = raw;
    }

    String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }

    JsonNode json() {
      try {
        return JSON.readTree(raw.body());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    List<JsonNode> lines() {
      List<JsonNode> out = new ArrayList<>();
      for (String l : raw.body().split("\n")) {
        if (!l.isBlank()) {
          try {
            out.add(JSON.readTree(l));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
      return out;
    }

    /** Lines whose single key is {@code key}, unwrapped. */
    List<JsonNode> lines(String key) {
      return lines().stream().filter(n -> n.has(key)).map(n -> n.get(key)).collect(Collectors.toList());
    }

    String errorCode() {
      return json().path("errorCode").asText();
    }

    String message() {
      return json().path("message").asText();
    }
  }

  private final DeltaSharingServer server;
  private final String token;

  Http(DeltaSharingServer server) {
    this(server, server.bearerToken());
  }

  Http(DeltaSharingServer server, String token) {
    this.server = server;
    this.token = token;
  }

  HttpRequest.Builder request(String pathAndQuery) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.endpoint() + pathAndQuery));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  Response get(String pathAndQuery, String... headers) {
    HttpRequest.Builder b = request(pathAndQuery).GET();
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return send(b.build());
  }

  Response head(String pathAndQuery) {
    return send(request(pathAndQuery).method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
  }

  Response post(String pathAndQuery, String body, String... headers) {
    HttpRequest.Builder b = request(pathAndQuery).header("Content-Type", "application/json; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return send(b.build());
  }

  /** POST .../query on {@code share.schema.table}. */
  Response query(String table, String body, String... headers) {
    return post(tablePath(table) + "/query", body, headers);
  }

  /** POST .../queries/{queryId} on {@code share.schema.table}: a poll of an async query. */
  Response poll(String table, String queryId, String body, String... headers) {
    return post(tablePath(table) + "/queries/" + queryId, body, headers);
  }

  static String tablePath(String table) {
    String[] p = table.split("\\.");
    return "/shares/" + p[0] + "/schemas/" + p[1] + "/tables/" + p[2];
  }

  static Response download(String url, String range) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
    if (range != null) {
      b.header("Range", range);
    }
    return send(b.build());
  }

  static byte[] downloadBytes(String url, String range) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
    if (range != null) {
      b.header("Range", range);
    }
    try {
      HttpResponse<byte[]> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() / 100 != 2) {
        throw new IllegalStateException("download failed: " + r.statusCode());
      }
      return r.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  static Response send(HttpRequest request) {
    try {
      return new Response(CLIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
