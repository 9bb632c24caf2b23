package io.sharestream.testkit.storage;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * S3's {@code ListObjectsV2} ({@code GET /<bucket>?list-type=2}) over a {@link Mount}: {@code prefix},
 * {@code delimiter} (keys rolled up into {@code CommonPrefixes}, each counting as one result), {@code start-after},
 * {@code continuation-token}, {@code max-keys} (default and ceiling 1000) and {@code encoding-type=url}; results in
 * UTF-8 binary order, pages with {@code IsTruncated} and {@code NextContinuationToken}.
 */
public final class ObjectListing {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
      .withZone(ZoneOffset.UTC);

  private ObjectListing() {}

  /** The {@code ListBucketResult} document for the request's query parameters; the prefix lies in {@code mount}. */
  public static String listV2(Mount mount, List<String[]> query) {
    String prefix = orEmpty(SigV4Verifier.param(query, "prefix"));
    String delimiter = orEmpty(SigV4Verifier.param(query, "delimiter"));
    String startAfter = SigV4Verifier.param(query, "start-after");
    String token = SigV4Verifier.param(query, "continuation-token");
    boolean url = "url".equals(SigV4Verifier.param(query, "encoding-type"));
    if (SigV4Verifier.param(query, "encoding-type") != null && !url) {
      throw new S3Error(400, "InvalidArgument", "Invalid Encoding Method specified in Request");
    }
    int maxKeys = maxKeys(SigV4Verifier.param(query, "max-keys"));
    String after = startAfter;
    boolean afterPrefix = false;
    if (token != null) {
      String decoded = decodeToken(token);
      afterPrefix = decoded.charAt(0) == 'p';
      after = decoded.substring(1);
    }
    byte[] afterBytes = after == null ? null : after.getBytes(StandardCharsets.UTF_8);
    List<Mount.Entry> contents = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String last = null;
    boolean lastIsPrefix = false;
    boolean truncated = false;
    for (Mount.Entry e : mount.list(prefix)) {
      if (afterBytes != null && (Mount.compareBytes(e.keyBytes, afterBytes) <= 0
          || (afterPrefix && e.key.startsWith(after)))) {
        continue;
      }
      int cut = delimiter.isEmpty() ? -1 : e.key.indexOf(delimiter, prefix.length());
      String common = cut < 0 ? null : e.key.substring(0, cut + delimiter.length());
      if (common != null && lastIsPrefix && common.equals(last)) {
        continue; // rolled up into the common prefix already listed
      }
      if (contents.size() + prefixes.size() == maxKeys) {
        truncated = maxKeys > 0;
        break;
      }
      if (common != null) {
        prefixes.add(common);
        last = common;
        lastIsPrefix = true;
      } else {
        contents.add(e);
        last = e.key;
        lastIsPrefix = false;
      }
    }
    StringBuilder b = new StringBuilder(Xml.DECLARATION)
        .append("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    Xml.element(b, "Name", mount.bucket);
    Xml.element(b, "Prefix", encode(prefix, url));
    Xml.element(b, "StartAfter", startAfter == null ? null : encode(startAfter, url));
    Xml.element(b, "KeyCount", Integer.toString(contents.size() + prefixes.size()));
    Xml.element(b, "MaxKeys", Integer.toString(maxKeys));
    Xml.element(b, "Delimiter", delimiter.isEmpty() ? null : encode(delimiter, url));
    Xml.element(b, "EncodingType", url ? "url" : null);
    Xml.element(b, "IsTruncated", Boolean.toString(truncated));
    Xml.element(b, "ContinuationToken", token);
    Xml.element(b, "NextContinuationToken", truncated ? encodeToken((lastIsPrefix ? "p" : "k") + last) : null);
    for (Mount.Entry e : contents) {
      b.append("<Contents>");
      Xml.element(b, "Key", encode(e.key, url));
      Xml.element(b, "LastModified", TIME.format(Instant.ofEpochMilli(e.lastModifiedMillis)));
      Xml.element(b, "ETag", Mount.etag(e.file, e.size, e.lastModifiedMillis));
      Xml.element(b, "Size", Long.toString(e.size));
      Xml.element(b, "StorageClass", "STANDARD");
      b.append("</Contents>");
    }
    for (String p : prefixes) {
      b.append("<CommonPrefixes>");
      Xml.element(b, "Prefix", encode(p, url));
      b.append("</CommonPrefixes>");
    }
    return b.append("</ListBucketResult>").toString();
  }

  private static int maxKeys(String text) {
    if (text == null) {
      return 1000;
    }
    try {
      int n = Integer.parseInt(text);
      if (n < 0) {
        throw new NumberFormatException();
      }
      return Math.min(n, 1000);
    } catch (NumberFormatException e) {
      throw new S3Error(400, "InvalidArgument", "Provided max-keys not an integer or within integer range")
          .with("ArgumentName", "max-keys").with("ArgumentValue", text);
    }
  }

  private static String encodeToken(String item) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(item.getBytes(StandardCharsets.UTF_8));
  }

  private static String decodeToken(String token) {
    try {
      String item = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      if (item.length() > 1 && (item.charAt(0) == 'k' || item.charAt(0) == 'p')) {
        return item;
      }
    } catch (IllegalArgumentException e) {
      // answered below
    }
    throw new S3Error(400, "InvalidArgument", "The continuation token provided is incorrect")
        .with("ArgumentName", "continuation-token");
  }

  private static String encode(String text, boolean url) {
    return url ? Xml.uriEncode(text, false) : text;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
