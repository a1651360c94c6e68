// expect: RE
// Writes through a null address with sun.misc.Unsafe: the JVM dies by a signal.
import java.lang.reflect.Field;

public class Adder {
    public long add(int[] values, int factor) throws Exception {
        Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) field.get(null);
        unsafe.putAddress(0, 42);
        return 0;
    }
}
