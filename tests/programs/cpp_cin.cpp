// Reads std::cin: a count, that many integers, then the rest line by line
// with std::getline; prints the sum and the lines reversed.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

int main()
{
    int count = 0;
    if (!(std::cin >> count)) {
        std::cout << "no count" << std::endl;
        return 1;
    }
    long sum = 0;
    for (int i = 0; i < count; i++) {
        long value;
        if (!(std::cin >> value)) {
            std::cout << "missing number " << i << std::endl;
            return 1;
        }
        sum += value;
    }
    std::cout << "sum of " << count << " numbers = " << sum << '\n';
    std::string line;
    std::getline(std::cin, line);  // the rest of the numbers' line
    std::vector<std::string> lines;
    while (std::getline(std::cin, line))
        lines.push_back(line);
    std::reverse(lines.begin(), lines.end());
    for (const auto &l : lines)
        std::cout << '<' << l << ">\n";
    std::cout << "eof=" << std::cin.eof() << std::endl;
    return 0;
}
