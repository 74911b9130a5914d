// A small particle code in C++, built with `pompprof --functions`: one task per block
// of particles per step, and the task's body only calls member functions, which do
// the work.  The tasks' own (exclusive) time is a few instructions; their work is in
// the functions they call, which a granularity verdict must count.
//
//   particles N BLOCK STEPS     (default 4096 256 4)
//
// Prints the centre of mass after the steps (the same with and without pompprof).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Particle {
    double x, y, vx, vy, fx, fy;
};

class System {
public:
    explicit System(int n) : p(n)
    {
        for (int i = 0; i < n; i++) {
            p[i].x = std::cos(0.37 * i) * (1 + i % 17);
            p[i].y = std::sin(0.53 * i) * (1 + i % 13);
            p[i].vx = p[i].vy = 0;
        }
    }
    // the forces on particles [lo, hi) from a sample of the others
    void forces(int lo, int hi)
    {
        const int n = static_cast<int>(p.size());
        for (int i = lo; i < hi; i++) {
            double fx = 0, fy = 0;
            for (int j = 0; j < n; j += 4) {
                double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
                double r2 = dx * dx + dy * dy + 0.01;
                double inv = 1.0 / (r2 * std::sqrt(r2));
                fx += dx * inv;
                fy += dy * inv;
            }
            p[i].fx = fx;
            p[i].fy = fy;
        }
    }
    void integrate(int lo, int hi, double dt)
    {
        for (int i = lo; i < hi; i++) {
            p[i].vx += dt * p[i].fx;
            p[i].vy += dt * p[i].fy;
        }
    }
    void move(double dt)
    {
        for (auto &q : p) {
            q.x += dt * q.vx;
            q.y += dt * q.vy;
        }
    }
    double centre() const
    {
        double s = 0;
        for (const auto &q : p)
            s += q.x + q.y;
        return s / static_cast<double>(p.size());
    }
    int size() const { return static_cast<int>(p.size()); }

private:
    std::vector<Particle> p;
};

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 4096;
    int block = argc > 2 ? std::atoi(argv[2]) : 256;
    int steps = argc > 3 ? std::atoi(argv[3]) : 4;
    System s(n);
    for (int step = 0; step < steps; step++) {
#pragma omp parallel
#pragma omp single
        {
            for (int lo = 0; lo < s.size(); lo += block) {
                int hi = lo + block < s.size() ? lo + block : s.size();
#pragma omp task firstprivate(lo, hi) shared(s)
                {
                    s.forces(lo, hi);
                    s.integrate(lo, hi, 1e-4);
                }
            }
        }
        s.move(1e-4);
    }
    std::printf("centre %.6f\n", s.centre());
    return 0;
}
