package io.github.slingvt.it.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One raw HTTP/1 connection to 127.0.0.1 that a test drives byte by byte, for clients that misbehave: half-closes,
 * resets (SO_LINGER 0), pipelining, heads sent a byte at a time, slow reading of the answer. {@link #answers} reads
 * answers until the expected number, the end of the stream, a reset or a time bound, whichever comes first, and
 * tells how the reading ended.
 */
final class HostileClient implements AutoCloseable {

    /** How the reading of answers ended. */
    enum End { COMPLETE, EOF, RESET, TIMEOUT }

    /** The status codes read (interim 1xx included, in order) and how the reading ended. */
    record Outcome(List<Integer> statuses, End end) {

        /** The final (non-1xx) status codes. */
        List<Integer> finals() {
            return statuses.stream().filter(s -> s >= 200).toList();
        }

        /**
         * What a table shows: the codes in order, repeats as {@code 200x3}, or "none"; "(open)" if the server held
         * the connection open without the answers expected.
         */
        String key() {
            final StringBuilder codes = new StringBuilder();
            for (int i = 0; i < statuses.size();) {
                int j = i;
                while (j < statuses.size() && statuses.get(j).equals(statuses.get(i))) {
                    j++;
                }
                codes.append(codes.isEmpty() ? "" : " ").append(statuses.get(i)).append(j - i > 1 ? "x" + (j - i) : "");
                i = j;
            }
            final String shown = codes.isEmpty() ? "none" : codes.toString();
            return end == End.TIMEOUT ? shown + " (open)" : shown;
        }
    }

    private final Socket socket = new Socket();
    private final OutputStream out;
    private final InputStream in;
    private final byte[] buffer = new byte[16384];
    private int position;
    private int limit;
    /** Bytes read per fill and the pause before each fill: a slow reader reads little and waits. */
    private int chunk = buffer.length;
    private long pauseMillis;
    private IOException writeFailure;

    /** Connects; {@code receiveBuffer} > 0 sets a small receive buffer first (a slow reader's). */
    HostileClient(int port, int receiveBuffer) throws IOException {
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    HostileClient(int port) throws IOException {
        this(port, 0);
    }

    /** {@code GET path HTTP/1.1} with a Host header and, if {@code close}, {@code Connection: close}. */
    static String get(String path, int port, boolean close) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + (close ? "Connection: close\r\n" : "")
                + "\r\n";
    }

    HostileClient send(String text) {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Sends the bytes; a write the server refused (it answered and closed, or reset) is remembered, not thrown, so
     * that the answer it may have sent can still be read. Nothing more is sent after such a failure.
     */
    HostileClient send(byte[] bytes) {
        if (writeFailure == null) {
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                writeFailure = e;
            }
        }
        return this;
    }

    /** Sends {@code text} one byte every {@code millis}. */
    HostileClient trickle(String text, long millis) throws InterruptedException {
        for (byte b : text.getBytes(StandardCharsets.ISO_8859_1)) {
            Thread.sleep(millis);
            send(new byte[] {b});
        }
        return this;
    }

    /** Whether a write failed because the server had closed or reset the connection. */
    boolean writeFailed() {
        return writeFailure != null;
    }

    HostileClient pause(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return this;
    }

    /** {@code shutdown(SHUT_WR)}: the client will send nothing more but still reads. */
    HostileClient halfClose() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            writeFailure = writeFailure != null ? writeFailure : e;
        }
        return this;
    }

    /** Closes with SO_LINGER 0: the kernel sends a reset instead of a FIN. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    /** Reads {@code bytes} bytes per read and pauses {@code millis} before each read from then on. */
    HostileClient readSlowly(int bytes, long millis) {
        this.chunk = bytes;
        this.pauseMillis = millis;
        return this;
    }

    /**
     * Reads answers (interim ones included) until {@code expected} final answers, the end of the stream, a reset, or
     * {@code timeout} since the call.
     */
    Outcome answers(int expected, Duration timeout) throws IOException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        final List<Integer> statuses = new ArrayList<>();
        int finals = 0;
        try {
            while (finals < expected) {
                final int status = answer(deadline);
                statuses.add(status);
                finals += status >= 200 ? 1 : 0;
            }
            return new Outcome(statuses, End.COMPLETE);
        } catch (SocketTimeoutException e) {
            return new Outcome(statuses, End.TIMEOUT);
        } catch (SocketException e) {
            return new Outcome(statuses, End.RESET);
        } catch (EndOfStream e) {
            return new Outcome(statuses, End.EOF);
        }
    }

    /** Reads one answer with its body; answers its status code. */
    int answer(long deadline) throws IOException {
        final String statusLine = line(deadline);
        if (!statusLine.matches("HTTP/1\\.[01] \\d{3}.*")) {
            throw new IOException("not an HTTP status line: '" + statusLine + "'");
        }
        final int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        for (String header = line(deadline); !header.isEmpty(); header = line(deadline)) {
            final String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        if (status < 200 || status == 204 || status == 304) {
            return status;
        }
        if (chunked) {
            for (long size = chunkSize(deadline); size > 0; size = chunkSize(deadline)) {
                skip(size, deadline);
                line(deadline);
            }
            while (!line(deadline).isEmpty()) {
                // trailers
            }
        } else if (length >= 0) {
            skip(length, deadline);
        } else {
            while (fill(deadline) >= 0) {
                position = limit;
            }
        }
        return status;
    }

    private long chunkSize(long deadline) throws IOException {
        return Long.parseLong(line(deadline).split(";")[0].trim(), 16);
    }

    private String line(long deadline) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (true) {
            if (position == limit && fill(deadline) < 0) {
                throw new EndOfStream();
            }
            final byte b = buffer[position++];
            if (b == '\n') {
                return bytes.toString(StandardCharsets.ISO_8859_1);
            }
            if (b != '\r') {
                bytes.write(b);
            }
        }
    }

    private void skip(long bytes, long deadline) throws IOException {
        long left = bytes;
        while (left > 0) {
            if (position == limit && fill(deadline) < 0) {
                throw new EndOfStream();
            }
            final int n = (int) Math.min(left, limit - position);
            position += n;
            left -= n;
        }
    }

    /** Reads into the buffer (after the slow reader's pause); -1 at the end of the stream. */
    private int fill(long deadline) throws IOException {
        if (pauseMillis > 0) {
            SlingInstance.sleep(pauseMillis);
        }
        final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new SocketTimeoutException("time bound reached");
        }
        socket.setSoTimeout((int) left);
        final int n = in.read(buffer, 0, chunk);
        position = 0;
        limit = Math.max(n, 0);
        return n;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** The server closed the connection inside or before an answer. */
    private static final class EndOfStream extends IOException {
        private static final long serialVersionUID = 1L;

        EndOfStream() {
            super("end of stream");
        }
    }
}
