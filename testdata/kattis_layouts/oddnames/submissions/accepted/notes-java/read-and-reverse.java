// The entry file's name is no Java class name; the class with main is Main, not public.
import java.io.*;

class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println(new StringBuilder(in.readLine().trim()).reverse());
    }
}
