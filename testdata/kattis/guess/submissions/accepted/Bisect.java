import java.io.*;

// A Java program in dialogue with the interactor: println on System.out flushes at each line.
public class Bisect {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int low = 1, high = 1000;
        while (true) {
            int guess = (low + high) / 2;
            System.out.println(guess);
            String reply = in.readLine();
            if (reply == null || reply.equals("correct")) return;
            if (reply.equals("higher")) low = guess + 1; else high = guess - 1;
        }
    }
}
