// Wrong answer: when John needs exactly as many colours as Gogo's exclusive ones, calls it a draw.
import java.util.HashSet;
import java.util.Set;

public class DoorsGame {
    public int determineOutcome(String doors, int trophy) {
        Set<Character> john = new HashSet<>(), gogo = new HashSet<>();
        for (int i = 0; i < doors.length(); i++) (i < trophy ? john : gogo).add(doors.charAt(i));
        int gogoOnly = 0, johnOnly = 0;
        for (char c : gogo) if (!john.contains(c)) gogoOnly++;
        for (char c : john) if (!gogo.contains(c)) johnOnly++;
        if (john.size() < gogoOnly) return 2 * john.size() - 1;
        if (gogo.size() < johnOnly) return -2 * gogo.size();
        return 0;
    }
}
