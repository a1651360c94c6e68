// expect: CE
class Types {
    static void Main() {
        int sum = "not a number";
        System.Console.WriteLine(sum);
    }
}
