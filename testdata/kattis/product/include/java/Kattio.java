// Given to every Java submission of this package (include/java/): reads the input's integers.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Kattio {
    private final BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
    private StringTokenizer words = new StringTokenizer("");

    public long nextLong() throws IOException {
        while (!words.hasMoreTokens()) {
            words = new StringTokenizer(reader.readLine());
        }
        return Long.parseLong(words.nextToken());
    }
}
