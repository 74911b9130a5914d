// particles: a small, call-heavy C++ particle code with tasks -- the kind of
// program `pompprof --functions` and its filters are for (doc/functions.md).
//
// Particles live in cells; every step each cell is a task that moves its
// particles under the forces between them (a member function per pair, a
// template to clamp the force, a lambda for the force on one particle), and
// the kinetic energy is summed by a task reduction.
//
// usage: particles [cells [particles-per-cell [steps]]]   (default 16 64 20)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace sim {

struct Vec3 {
    double x, y, z;
};

// A force component limited to +-limit.
template <typename T>
T clamp_abs(T v, T limit)
{
    return v > limit ? limit : (v < -limit ? -limit : v);
}

class Particle {
  public:
    Vec3 pos, vel;
    double mass;

    double kinetic() const
    {
        return 0.5 * mass * (vel.x * vel.x + vel.y * vel.y + vel.z * vel.z);
    }

    void push(const Vec3 &f, double dt)
    {
        vel.x += f.x / mass * dt;
        vel.y += f.y / mass * dt;
        vel.z += f.z / mass * dt;
        pos.x += vel.x * dt;
        pos.y += vel.y * dt;
        pos.z += vel.z * dt;
    }
};

class Cell {
  public:
    std::vector<Particle> parts;

    // The force of b on a: softened gravity, each component clamped.
    Vec3 interact(const Particle &a, const Particle &b) const
    {
        double dx = b.pos.x - a.pos.x, dy = b.pos.y - a.pos.y, dz = b.pos.z - a.pos.z;
        double r2 = dx * dx + dy * dy + dz * dz + 1e-3;
        double s = a.mass * b.mass / (r2 * std::sqrt(r2));
        return {clamp_abs(s * dx, 10.0), clamp_abs(s * dy, 10.0), clamp_abs(s * dz, 10.0)};
    }

    void step(double dt)
    {
        std::vector<Vec3> forces(parts.size());
        auto force_on = [&](std::size_t i) {
            Vec3 f{0, 0, 0};
            for (std::size_t j = 0; j < parts.size(); j++)
                if (j != i) {
                    Vec3 g = interact(parts[i], parts[j]);
                    f.x += g.x, f.y += g.y, f.z += g.z;
                }
            return f;
        };
        for (std::size_t i = 0; i < parts.size(); i++)
            forces[i] = force_on(i);
        for (std::size_t i = 0; i < parts.size(); i++)
            parts[i].push(forces[i], dt);
    }

    double energy() const
    {
        double e = 0;
        for (const Particle &p : parts)
            e += p.kinetic();
        return e;
    }
};

} // namespace sim

int main(int argc, char **argv)
{
    int ncells = argc > 1 ? std::atoi(argv[1]) : 16;
    int nparts = argc > 2 ? std::atoi(argv[2]) : 64;
    int steps = argc > 3 ? std::atoi(argv[3]) : 20;
    if (ncells < 1 || nparts < 1 || steps < 0) {
        std::fprintf(stderr, "usage: particles [cells [particles-per-cell [steps]]]\n");
        return 2;
    }
    std::vector<sim::Cell> cells(ncells);
    unsigned seed = 12345;
    for (sim::Cell &c : cells)
        for (int i = 0; i < nparts; i++) {
            seed = seed * 1103515245u + 12345u;
            double a = (seed >> 8) % 1000 / 1000.0;
            c.parts.push_back({{a, 1 - a, a * a}, {0, 0, 0}, 1.0 + a});
        }
    double energy = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int s = 0; s < steps; s++) {
            for (int k = 0; k < ncells; k++) {
#pragma omp task firstprivate(k) shared(cells)
                cells[k].step(1e-4);
            }
#pragma omp taskwait
        }
#pragma omp taskgroup task_reduction(+ : energy)
        for (int k = 0; k < ncells; k++) {
#pragma omp task firstprivate(k) shared(cells) in_reduction(+ : energy)
            energy += cells[k].energy();
        }
    }
    std::printf("kinetic energy %.6e\n", energy);
    return 0;
}
