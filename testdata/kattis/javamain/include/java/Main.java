// The package's entry point: reads the pairs and prints what the submission's Adder makes of each.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.IOException;
import java.util.StringTokenizer;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int count = Integer.parseInt(in.readLine().trim());
        StringBuilder out = new StringBuilder();
        Adder adder = new Adder();
        for (int i = 0; i < count; ++i) {
            StringTokenizer words = new StringTokenizer(in.readLine());
            out.append(adder.add(Long.parseLong(words.nextToken()), Long.parseLong(words.nextToken()))).append('\n');
        }
        System.out.print(out);
    }
}
